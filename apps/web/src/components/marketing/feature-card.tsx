import type { ComponentType, SVGProps } from 'react';
import { Card } from '../ui/card.tsx';

export type FeatureIcon = ComponentType<SVGProps<SVGSVGElement>>;

/** Icon, title and text in a card: the feature grids of the landing pages. */
export function FeatureCard({ title, icon: Icon, text }: { title: string; icon: FeatureIcon; text: string }) {
  return (
    <Card className="h-full p-6">
      <span className="inline-flex size-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h3 className="mt-5 text-lg font-semibold text-slate-900">{title}</h3>
      <p className="mt-2 text-slate-600">{text}</p>
    </Card>
  );
}

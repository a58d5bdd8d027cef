import { useId, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card } from './ui/card.tsx';

/** One titled card of a shop page (configurator, web hosting). */
export function ShopSection({ title, icon: Icon, children }: { title: string; icon: LucideIcon; children: ReactNode }) {
  const id = useId();
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={id}>
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Icon className="size-5 text-brand-700" aria-hidden="true" /> {title}
        </h2>
        <div className="mt-4">{children}</div>
      </section>
    </Card>
  );
}

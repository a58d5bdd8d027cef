import { Construction } from 'lucide-react';
import { Card } from '../../components/ui/card.tsx';
import { PageMeta } from '../../components/page-meta.tsx';

/** An honest placeholder for pages whose issue is not done yet. */
export function PlaceholderPage({ title, text }: { title: string; text: string }) {
  return (
    <div className="mx-auto max-w-5xl">
      <PageMeta title={title} />
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <Card className="mt-6 flex items-start gap-4 p-6">
        <Construction className="size-6 shrink-0 text-amber-600" aria-hidden="true" />
        <div>
          <p className="font-medium text-slate-900">Dieser Bereich ist noch im Aufbau.</p>
          <p className="mt-1 text-sm text-slate-600">{text}</p>
        </div>
      </Card>
    </div>
  );
}

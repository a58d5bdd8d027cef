import { Card } from '../../../components/ui/card.tsx';
import { formatMb } from './format.ts';

/** Used of quota as a bar, with the figures in words for screen readers. */
export function UsageBar({ label, usedMb, quotaMb }: { label: string; usedMb: number; quotaMb: number }) {
  const percent = Math.max(0, Math.min(100, (usedMb / Math.max(1, quotaMb)) * 100));
  const high = percent >= 90;
  return (
    <Card className="p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-medium text-slate-600">{label}</h3>
        <p className="text-sm font-semibold text-slate-900">{formatMb(usedMb)} von {formatMb(quotaMb)}</p>
      </div>
      <div className="mt-3 h-2 rounded-full bg-slate-200" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(percent)}
        aria-valuetext={`${formatMb(usedMb)} von ${formatMb(quotaMb)} (${Math.round(percent)} %)`}>
        <div className={`h-2 rounded-full transition-[width] ${high ? 'bg-red-600' : 'bg-brand-600'}`} style={{ width: `${percent}%` }} />
      </div>
      {high && <p className="mt-2 text-sm text-red-700">Das Kontingent ist fast ausgeschöpft.</p>}
    </Card>
  );
}

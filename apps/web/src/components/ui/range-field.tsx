import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Minus, Plus } from 'lucide-react';
import { formatNumberDe } from '@hp/contract';

const stepButton = 'inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50';

/**
 * A slider with − and + buttons (one step each) and its value spoken as text: arrow keys move the
 * slider, the buttons serve those who cannot drag. The configurators of the root server and the virtual
 * data center use it.
 */
export function RangeField({ label, display, limits, value, registration, onStep, hint }: {
  label: string;
  display: string;
  limits: { min: number; max: number; step: number };
  value: number;
  registration: UseFormRegisterReturn;
  onStep: (value: number) => void;
  hint?: string;
}) {
  const id = useId();
  const step = (dir: 1 | -1) => onStep(Math.min(limits.max, Math.max(limits.min, value + dir * limits.step)));
  return (
    <div>
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">{label}</label>
        <span className="text-base font-semibold tabular-nums text-slate-900" aria-hidden="true">{display}</span>
      </div>
      <div className="mt-2 flex items-center gap-3">
        <button type="button" className={stepButton} onClick={() => step(-1)} disabled={value <= limits.min} aria-label={`${label} verringern`}>
          <Minus className="size-4" aria-hidden="true" />
        </button>
        {/* defaultValue: the prerendered page shows the thumb where it belongs before the form takes over. */}
        <input id={id} type="range" min={limits.min} max={limits.max} step={limits.step} defaultValue={value} aria-valuetext={display}
          aria-describedby={hint ? `${id}-hint` : undefined} className="h-2 w-full min-w-0 cursor-pointer accent-brand-600" {...registration} />
        <button type="button" className={stepButton} onClick={() => step(1)} disabled={value >= limits.max} aria-label={`${label} erhöhen`}>
          <Plus className="size-4" aria-hidden="true" />
        </button>
      </div>
      <div className="mt-1 flex justify-between px-12 text-xs text-slate-600" aria-hidden="true">
        <span>{formatNumberDe(limits.min)}</span>
        <span>{formatNumberDe(limits.max)}</span>
      </div>
      {hint && <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">{hint}</p>}
    </div>
  );
}

import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

/**
 * One box per character. Typing moves on, Backspace moves back, and a pasted code is spread over
 * the boxes. `normalize` filters and upper-cases what may be entered.
 */
export function CodeInput({ value, onChange, length, label, normalize, inputMode = 'text', disabled, autoFocus, invalid }: {
  value: string;
  onChange: (value: string) => void;
  length: number;
  label: string;
  normalize: (raw: string) => string;
  inputMode?: 'text' | 'numeric';
  disabled?: boolean;
  autoFocus?: boolean;
  invalid?: boolean;
}) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const chars = Array.from({ length }, (_, i) => value[i] ?? '');

  const setAt = (index: number, text: string) => {
    const clean = normalize(text);
    if (!clean) return;
    const next = chars.slice();
    for (let i = 0; i < clean.length && index + i < length; i++) next[index + i] = clean[i]!;
    const joined = next.join('').slice(0, length);
    onChange(joined);
    refs.current[Math.min(index + clean.length, length - 1)]?.focus();
  };

  const onKeyDown = (index: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault();
      const next = chars.slice();
      if (next[index]) next[index] = '';
      else if (index > 0) {
        next[index - 1] = '';
        refs.current[index - 1]?.focus();
      }
      onChange(next.join(''));
    } else if (e.key === 'ArrowLeft' && index > 0) refs.current[index - 1]?.focus();
    else if (e.key === 'ArrowRight' && index < length - 1) refs.current[index + 1]?.focus();
  };

  const onPaste = (index: number) => (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    setAt(index, e.clipboardData.getData('text'));
  };

  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium text-slate-800">{label}</legend>
      <div className="flex gap-2 sm:gap-3">
        {chars.map((c, i) => (
          <input
            key={i}
            ref={(el) => {
              refs.current[i] = el;
            }}
            value={c}
            onChange={(e) => {
              const typed = e.target.value.replace(c, '') || e.target.value;
              if (typed === '') {
                const next = chars.slice();
                next[i] = '';
                onChange(next.join(''));
              } else setAt(i, typed);
            }}
            onKeyDown={onKeyDown(i)}
            onPaste={onPaste(i)}
            onFocus={(e) => e.target.select()}
            inputMode={inputMode}
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            autoFocus={autoFocus && i === 0}
            aria-label={`${label}: Zeichen ${i + 1} von ${length}`}
            aria-invalid={invalid || undefined}
            maxLength={length}
            className="size-12 rounded-lg border border-slate-300 bg-white text-center font-mono text-xl font-semibold uppercase text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200 aria-[invalid=true]:border-red-600 sm:size-14"
          />
        ))}
      </div>
    </fieldset>
  );
}

export const normalizeAlnum = (raw: string) => raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
export const normalizeDigits = (raw: string) => raw.replace(/\D/g, '');

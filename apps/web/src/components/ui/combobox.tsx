import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { inputClass } from './field.tsx';

export interface ComboboxOption<T extends string | number> {
  value: T;
  label: string;
  description?: ReactNode;
  disabled?: boolean;
}

export interface ComboboxProps<T extends string | number> {
  label: string;
  /** The chosen option's label, shown while the user is not typing. */
  selectedLabel?: string;
  value: T | undefined;
  onChange: (value: T) => void;
  /** Filtering happens outside (usually on the server); the box reports what is typed. */
  query: string;
  onQueryChange: (query: string) => void;
  options: ComboboxOption<T>[];
  loading?: boolean;
  error?: string;
  hint?: ReactNode;
  placeholder?: string;
  emptyText?: string;
  onBlur?: () => void;
}

/**
 * A searchable picker following the ARIA combobox pattern: type to search, arrow keys to move,
 * Enter to choose, Escape to close. The list shows what the caller found for the typed text.
 */
export function Combobox<T extends string | number>({
  label, selectedLabel, value, onChange, query, onQueryChange, options, loading, error, hint, placeholder, emptyText = 'Keine Treffer', onBlur,
}: ComboboxProps<T>) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [open, setOpen] = useState(false);
  const [typing, setTyping] = useState(false);
  const [active, setActive] = useState(0);
  const enabled = options.filter((o) => !o.disabled);
  const activeOption = open ? enabled[Math.min(active, enabled.length - 1)] : undefined;
  const optionId = (v: T) => `${id}-opt-${String(v).replace(/[^A-Za-z0-9_-]/g, '_')}`;

  const choose = (option: ComboboxOption<T>) => {
    onChange(option.value);
    setTyping(false);
    setOpen(false);
    onQueryChange('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) { setOpen(true); setActive(0); return; }
      const n = enabled.length;
      if (n) setActive((a) => (e.key === 'ArrowDown' ? (Math.min(a, n - 1) + 1) % n : (Math.min(a, n - 1) - 1 + n) % n));
    } else if (e.key === 'Enter') {
      if (open && activeOption) {
        e.preventDefault();
        choose(activeOption);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        setOpen(false);
        setTyping(false);
      }
    }
  };

  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">{label}</label>
      <div className="relative">
        <input
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? optionId(activeOption.value) : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined}
          autoComplete="off"
          className={cn(inputClass, 'pr-10')}
          placeholder={placeholder}
          value={typing ? query : selectedLabel ?? ''}
          onChange={(e) => {
            setTyping(true);
            setOpen(true);
            setActive(0);
            onQueryChange(e.target.value);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setTyping(false);
            onBlur?.();
          }}
          onKeyDown={onKeyDown}
        />
        <ChevronDown className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-slate-600" aria-hidden="true" />
        {open && (
          <ul id={listId} role="listbox" aria-label={label} className="absolute z-10 mt-1 max-h-64 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
            {loading && !options.length ? (
              <li className="px-3 py-2 text-sm text-slate-600" role="presentation">Lade …</li>
            ) : options.length ? (
              options.map((option) => {
                const isActive = activeOption?.value === option.value;
                return (
                  <li
                    key={String(option.value)}
                    id={optionId(option.value)}
                    role="option"
                    aria-selected={option.value === value}
                    aria-disabled={option.disabled || undefined}
                    // Keeps focus in the input so that the blur does not close the list before the click.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => !option.disabled && choose(option)}
                    className={cn(
                      'cursor-pointer px-3 py-2 text-sm',
                      option.disabled ? 'cursor-not-allowed text-slate-500' : 'text-slate-900',
                      isActive && 'bg-brand-50',
                      option.value === value && 'font-semibold',
                    )}
                  >
                    <span className="block">{option.label}</span>
                    {option.description && <span className="block text-xs text-slate-600">{option.description}</span>}
                  </li>
                );
              })
            ) : (
              <li className="px-3 py-2 text-sm text-slate-600" role="presentation">{emptyText}</li>
            )}
          </ul>
        )}
      </div>
      {hint && <div id={hintId} className="text-sm text-slate-600">{hint}</div>}
      {error && <p id={errorId} role="alert" className="text-sm font-medium text-red-700">{error}</p>}
    </div>
  );
}

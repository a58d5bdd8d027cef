import { useId, type InputHTMLAttributes } from 'react';
import { Search } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { inputClass } from './field.tsx';

/** A search box with a screen-reader label and a magnifier icon. */
export function SearchField({ label, className, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className={cn('relative', className)}>
      <label htmlFor={id} className="sr-only">{label}</label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
      <input id={id} type="search" autoComplete="off" className={cn(inputClass, 'pl-9')} {...rest} />
    </div>
  );
}

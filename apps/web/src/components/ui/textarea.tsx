import { forwardRef, useId, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';
import { inputClass } from './field.tsx';

export interface TextareaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled multi-line input whose error is announced and linked by aria-describedby (like Field). */
export const TextareaField = forwardRef<HTMLTextAreaElement, TextareaFieldProps>(function TextareaField({ label, error, hint, className, id, rows = 4, ...rest }, ref) {
  const autoId = useId();
  const textareaId = id ?? autoId;
  const errorId = `${textareaId}-error`;
  const hintId = `${textareaId}-hint`;
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={textareaId} className="block text-sm font-medium text-slate-800">{label}</label>
      <textarea
        ref={ref}
        id={textareaId}
        rows={rows}
        className={cn(inputClass, 'min-h-24 resize-y')}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined}
        {...rest}
      />
      {hint && <div id={hintId} className="text-sm text-slate-600">{hint}</div>}
      {error && <p id={errorId} role="alert" className="text-sm font-medium text-red-700">{error}</p>}
    </div>
  );
});

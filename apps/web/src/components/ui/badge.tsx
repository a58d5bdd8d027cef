import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

export type BadgeTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

// Dark text on a light tint: every pair passes WCAG AA (≥ 4.5:1) for small text.
const tones: Record<BadgeTone, string> = {
  success: 'bg-green-100 text-green-800 ring-green-600/20',
  warning: 'bg-amber-100 text-amber-900 ring-amber-600/25',
  danger: 'bg-red-100 text-red-800 ring-red-600/20',
  info: 'bg-brand-50 text-brand-800 ring-brand-600/20',
  neutral: 'bg-slate-100 text-slate-800 ring-slate-500/20',
};

export function Badge({ tone = 'neutral', className, ...rest }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return <span className={cn('inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', tones[tone], className)} {...rest} />;
}

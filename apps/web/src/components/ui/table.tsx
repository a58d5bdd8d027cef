import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

/** A scrollable data table; `caption` names it for screen readers (visible or sr-only). */
export function Table({ caption, captionHidden = true, className, children, ...rest }: HTMLAttributes<HTMLTableElement> & { caption: string; captionHidden?: boolean }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className={cn('w-full border-collapse text-left text-sm', className)} {...rest}>
        <caption className={captionHidden ? 'sr-only' : 'px-4 py-3 text-left font-semibold text-slate-900'}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn('whitespace-nowrap border-b border-slate-200 bg-slate-50 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-700', className)} {...rest} />;
}

/** The first cell of a row, announced as the row's header. */
export function RowHeader({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="row" className={cn('whitespace-nowrap px-4 py-3 font-semibold text-slate-900', className)} {...rest} />;
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-4 py-3 align-middle text-slate-800', className)} {...rest} />;
}

export function Tr({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('border-b border-slate-100 last:border-b-0 hover:bg-slate-50/60', className)} {...rest} />;
}

import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

export interface Column<T> {
  /** The column header; on narrow screens also the label in front of each value. */
  header: string;
  cell: (row: T) => ReactNode;
  /** Names the row: announced as the row's header, shown first and in bold. */
  rowHeader?: boolean;
  /** The row's buttons: the header is for screen readers only, and the stacked layout shows no label. */
  actions?: boolean;
  /** Classes for this column's cells (e.g. 'font-mono', 'text-right'). */
  className?: string;
  headerClassName?: string;
}

export interface DataTableProps<T> {
  /** Names the table for screen readers. */
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** Draws the border and shadow itself; off inside a card that already has them. */
  framed?: boolean;
}

// Below 48rem of *available* width (a container query, so a table inside a card or next to the
// sidebar decides by its own room, not the window's), every row becomes a block of "label: value"
// lines with the actions at the end. Wider, it is a table that scrolls inside its frame if it must.
const stacked = {
  table: '@max-3xl:block',
  head: '@max-3xl:sr-only',
  body: '@max-3xl:block',
  row: '@max-3xl:block @max-3xl:px-4 @max-3xl:py-3',
  cell: cn(
    '@max-3xl:flex @max-3xl:items-start @max-3xl:justify-between @max-3xl:gap-4 @max-3xl:whitespace-normal @max-3xl:px-0 @max-3xl:py-1 @max-3xl:text-right',
    '@max-3xl:before:shrink-0 @max-3xl:before:max-w-[50%] @max-3xl:before:text-left @max-3xl:before:font-sans @max-3xl:before:normal-case @max-3xl:before:tracking-normal @max-3xl:before:text-sm @max-3xl:before:font-normal @max-3xl:before:text-slate-600 @max-3xl:before:content-[attr(data-label)]',
  ),
  actions: '@max-3xl:flex @max-3xl:justify-end @max-3xl:px-0 @max-3xl:pb-0 @max-3xl:pt-2',
};

/**
 * The one data table of the portal and the staff area: a real table on wide screens, stacked rows on
 * narrow ones, so no column (least of all the actions) is ever pushed out of sight on a phone.
 */
export function DataTable<T>({ caption, columns, rows, rowKey, framed = true }: DataTableProps<T>) {
  return (
    <div className="@container">
      {/* `relative` keeps visually hidden (absolutely positioned) texts inside the scroll frame;
          without it they count towards the page width and make the whole page scroll sideways. */}
      <div className={cn('relative overflow-x-auto @max-3xl:overflow-visible', framed && 'rounded-xl border border-slate-200 bg-white shadow-sm')}>
        <table className={cn('w-full border-collapse text-left text-sm', stacked.table)}>
          <caption className="sr-only">{caption}</caption>
          <thead className={stacked.head}>
            <tr>
              {columns.map((col) => (
                <th
                  key={col.header}
                  scope="col"
                  className={cn('whitespace-nowrap border-b border-slate-200 bg-slate-50 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-700', col.headerClassName)}
                >
                  {col.actions ? <span className="sr-only">{col.header}</span> : col.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={stacked.body}>
            {rows.map((row) => (
              <tr key={rowKey(row)} className={cn('border-b border-slate-100 last:border-b-0 hover:bg-slate-50/60', stacked.row)}>
                {columns.map((col) => {
                  const content = <div className="min-w-0 break-words">{col.cell(row)}</div>;
                  if (col.rowHeader) {
                    return (
                      <th key={col.header} scope="row" data-label={col.header} className={cn('px-4 py-3 align-middle font-semibold text-slate-900', stacked.cell, col.className)}>
                        {content}
                      </th>
                    );
                  }
                  return (
                    <td
                      key={col.header}
                      data-label={col.actions ? undefined : col.header}
                      className={cn('px-4 py-3 align-middle text-slate-800', col.actions ? stacked.actions : stacked.cell, col.className)}
                    >
                      {content}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

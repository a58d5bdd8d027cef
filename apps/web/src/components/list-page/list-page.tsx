import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { DataTable, type Column } from '../ui/table.tsx';
import { ListState } from '../ui/list-state.tsx';
import { Pagination } from '../ui/pagination.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { SelectField } from '../ui/select.tsx';
import { useListParams, type ListParams } from './use-list-params.ts';

/** How long typing must rest before the search goes to the URL (and the server). */
const SEARCH_DELAY_MS = 250;

/** Rows per page of the staff lists. */
export const LIST_PAGE_SIZE = 25;

/** What a list endpoint receives: the URL's state plus the page size. */
export interface ListRequest extends ListParams { pageSize: number }

export interface ListFilter {
  /** Query parameter, the same in the URL and in the API call (e.g. 'status'). */
  param: string;
  label: string;
  /** The "no filter" entry, e.g. 'Alle Status'. */
  allLabel: string;
  options: readonly { value: string; label: string }[];
}

export interface ListSortOption { value: string; label: string }

/** The part of a TanStack query result the page reads. */
export interface ListQueryResult<T> {
  data: { items: T[]; total: number; totalCapped?: boolean } | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ListPageProps<T> {
  /** The list's query hook (server-side paging, search, sort, filters). */
  useList: (request: ListRequest) => ListQueryResult<T>;
  search: { label: string; placeholder: string };
  filters?: readonly ListFilter[];
  /** The first option is the list's default order and is not written to the URL. */
  sortOptions?: readonly ListSortOption[];
  table: { caption: string; columns: Column<T>[]; rowKey: (row: T) => string | number };
  texts: {
    loading: string;
    error: string;
    /** Nothing there at all. */
    empty: ReactNode;
    /** Nothing matches the search term. */
    noMatch: (q: string) => string;
    /** Names the page navigation for screen readers. */
    pagination: string;
  };
  pageSize?: number;
}

/**
 * The list page of the staff area (and of the customer, ticket and CRM lists to come): a search box,
 * filters and a sort order above the DataTable, paging below it. Everything is kept in the URL
 * (`?q=…&status=…&sort=…&page=…`) and answered by the server, which pages, sorts and searches.
 */
export function ListPage<T>({ useList, search, filters = [], sortOptions = [], table, texts, pageSize = LIST_PAGE_SIZE }: ListPageProps<T>) {
  const { params, update } = useListParams(filters.map((f) => f.param));
  const location = useLocation();
  const [text, setText] = useState(params.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  /**
   * Writes the search term to the URL. Typing writes once it rests (250 ms), leaving the box (e.g. to
   * click a link) writes at once, so no late write can follow the user's own navigation. A write is
   * skipped while another navigation is pending (the browser's history entry is no longer this one),
   * because the URL would be computed from this page's location and pull the user back.
   */
  const writeSearch = (value: string) => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const pending = typeof window !== 'undefined' && (window.history.state as { key?: string } | null)?.key;
    if (pending && pending !== location.key) return;
    if (value.trim() !== params.q) update({ q: value.trim() }, { replace: true });
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  /**
   * A filter or the order changed: a search term still waiting for its write goes along in the same URL.
   * Written later, it was computed from the URL before the change and dropped the new order (or, in the
   * browser, was skipped as if another page were on its way), while the box still showed the term.
   */
  const change = (changes: Record<string, string | undefined>) => {
    const waiting = timer.current !== undefined && text.trim() !== params.q;
    clearTimeout(timer.current);
    timer.current = undefined;
    update(waiting ? { ...changes, q: text.trim() } : changes);
  };
  // The URL changing otherwise (back, a link) refills the box.
  useEffect(() => {
    setText((current) => (current.trim() === params.q ? current : params.q));
  }, [params.q]);

  const query = useList({ ...params, pageSize });
  const items = query.data?.items ?? [];
  const filtered = Object.keys(params.filters).length > 0;

  return (
    <>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <SearchField
          label={search.label}
          placeholder={search.placeholder}
          className="w-full sm:max-w-md sm:flex-1"
          value={text}
          onChange={(e) => {
            const value = e.target.value;
            setText(value);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => writeSearch(value), SEARCH_DELAY_MS);
          }}
          onBlur={() => timer.current !== undefined && writeSearch(text)}
        />
        {filters.map((filter) => (
          <SelectField
            key={filter.param}
            label={filter.label}
            className="sm:w-48"
            value={params.filters[filter.param] ?? ''}
            onChange={(e) => change({ [filter.param]: e.target.value })}
          >
            <option value="">{filter.allLabel}</option>
            {filter.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </SelectField>
        ))}
        {sortOptions.length > 1 && (
          <SelectField label="Sortierung" className="sm:w-56" value={params.sort ?? sortOptions[0]!.value} onChange={(e) => change({ sort: e.target.value === sortOptions[0]!.value ? undefined : e.target.value })}>
            {sortOptions.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </SelectField>
        )}
      </div>

      <div className="mt-4">
        <ListState
          query={query}
          isEmpty={!items.length}
          loadingLabel={texts.loading}
          errorText={texts.error}
          empty={params.q ? texts.noMatch(params.q) : filtered ? 'Keine Einträge für die gewählten Filter gefunden.' : texts.empty}
        >
          <DataTable caption={table.caption} columns={table.columns} rows={items} rowKey={table.rowKey} />
          <Pagination
            offset={(params.page - 1) * pageSize}
            limit={pageSize}
            total={query.data?.total ?? 0}
            totalCapped={query.data?.totalCapped ?? false}
            onOffsetChange={(offset) => update({ page: Math.floor(offset / pageSize) + 1 })}
            label={texts.pagination}
          />
        </ListState>
      </div>
    </>
  );
}

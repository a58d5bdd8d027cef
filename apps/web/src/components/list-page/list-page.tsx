import { useEffect, useState, type ReactNode } from 'react';
import { DataTable, type Column } from '../ui/table.tsx';
import { ListState } from '../ui/list-state.tsx';
import { Pagination } from '../ui/pagination.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { SelectField } from '../ui/select.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useListParams, type ListParams } from './use-list-params.ts';

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
  data: { items: T[]; total: number } | undefined;
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
  const [input, setInput] = useState(params.q);
  const debounced = useDebouncedValue(input).trim();

  // Typing writes the term to the URL once it rests; the URL changing otherwise (back, a link) refills the box.
  useEffect(() => {
    if (debounced !== params.q) update({ q: debounced }, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new term should write the URL
  }, [debounced]);
  useEffect(() => {
    setInput((current) => (current.trim() === params.q ? current : params.q));
  }, [params.q]);

  const query = useList({ ...params, pageSize });
  const items = query.data?.items ?? [];
  const filtered = Object.keys(params.filters).length > 0;

  return (
    <>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <SearchField label={search.label} placeholder={search.placeholder} className="w-full sm:max-w-md sm:flex-1" value={input} onChange={(e) => setInput(e.target.value)} />
        {filters.map((filter) => (
          <SelectField
            key={filter.param}
            label={filter.label}
            className="sm:w-48"
            value={params.filters[filter.param] ?? ''}
            onChange={(e) => update({ [filter.param]: e.target.value })}
          >
            <option value="">{filter.allLabel}</option>
            {filter.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </SelectField>
        ))}
        {sortOptions.length > 1 && (
          <SelectField label="Sortierung" className="sm:w-52" value={params.sort ?? sortOptions[0]!.value} onChange={(e) => update({ sort: e.target.value === sortOptions[0]!.value ? undefined : e.target.value })}>
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
            onOffsetChange={(offset) => update({ page: Math.floor(offset / pageSize) + 1 })}
            label={texts.pagination}
          />
        </ListState>
      </div>
    </>
  );
}

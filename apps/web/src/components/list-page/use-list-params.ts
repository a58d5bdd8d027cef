import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** What a server-side list asks for; kept in the URL so that reload, back and shared links keep it. */
export interface ListParams {
  /** Search term, trimmed ('' = none). */
  q: string;
  /** From 1. */
  page: number;
  /** 'field' or '-field'; undefined = the list's default order (the server's). */
  sort: string | undefined;
  /** Filter values by query parameter; only set filters are present. */
  filters: Record<string, string>;
}

const positive = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : 1;
};

/**
 * Search (`q`), page (`page`), sort (`sort`) and the named filters of a list as URL search parameters.
 * Unknown sort or filter values are passed on as they are: the server refuses them with a German message.
 */
export function useListParams(filterKeys: readonly string[]) {
  const [searchParams, setSearchParams] = useSearchParams();
  const keys = filterKeys.join(',');

  const params = useMemo<ListParams>(() => {
    const filters: Record<string, string> = {};
    for (const key of keys ? keys.split(',') : []) {
      const value = searchParams.get(key);
      if (value) filters[key] = value;
    }
    return { q: (searchParams.get('q') ?? '').trim(), page: positive(searchParams.get('page')), sort: searchParams.get('sort') ?? undefined, filters };
  }, [searchParams, keys]);

  /** Sets the given parameters ('' or undefined removes one); any change but the page starts at page 1. */
  const update = useCallback((changes: Record<string, string | number | undefined>, opts: { replace?: boolean } = {}) => {
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === '' || (key === 'page' && value === 1)) next.delete(key);
        else next.set(key, String(value));
      }
      if (!('page' in changes)) next.delete('page');
      return next;
    }, { replace: opts.replace });
  }, [setSearchParams]);

  return { params, update };
}

import { useQuery } from '@tanstack/react-query';
import type { DomainSearchResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

export const domainKeys = {
  search: (q: string) => ['domains', 'search', q] as const,
};

// GET /api/domains/search?q= — public availability and yearly price per name and extension.
export const fetchDomainSearch = (q: string, signal?: AbortSignal) =>
  api<DomainSearchResult>(`/domains/search?q=${encodeURIComponent(q)}`, { signal, anonymous: true });

/** One search per typed text; a 429 or 503 is shown, not retried (the server caches briefly anyway). */
export const useDomainSearch = (q: string) => useQuery({
  queryKey: domainKeys.search(q),
  queryFn: ({ signal }) => fetchDomainSearch(q, signal),
  retry: false,
  staleTime: 60_000,
});

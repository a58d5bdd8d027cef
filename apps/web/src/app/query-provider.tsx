import { useContext, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { readInitialData, seedQueries, ServerQueryClient } from './initial-data.ts';

/** One cache for the whole tab; loaded together with the first page that needs data. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } } });

// A server-rendered page (the changelog) carries the data it was rendered with: hydrate from it.
seedQueries(queryClient, readInitialData());

export default function QueryProvider({ children }: { children: ReactNode }) {
  const serverClient = useContext(ServerQueryClient);
  return <QueryClientProvider client={serverClient ?? queryClient}>{children}</QueryClientProvider>;
}

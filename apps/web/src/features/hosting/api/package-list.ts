import { useQuery } from '@tanstack/react-query';
import type { HostingList } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/hosting — own and shared hosting packages. Polls while one is being set up.
export const useHostingPackages = () => useQuery({
  queryKey: ['hosting', 'list'],
  queryFn: () => api<HostingList>('/hosting'),
  refetchInterval: (q) => (q.state.data?.items.some((p) => p.status === 'provisioning') ? 3000 : false),
});

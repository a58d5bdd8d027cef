import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UsageHistory, UsageHistoryQuery } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

type Timeframe = UsageHistoryQuery['timeframe'];

// GET /api/servers/:id/usage?timeframe= — usage graphs, refreshed every minute.
export const getUsageHistory = (id: string, timeframe: Timeframe) => api<UsageHistory>(`/servers/${id}/usage?timeframe=${timeframe}`);
export const usageHistoryQueryOptions = (id: string, timeframe: Timeframe) =>
  queryOptions({ queryKey: ['servers', id, 'usage', timeframe], queryFn: () => getUsageHistory(id, timeframe), refetchInterval: 60_000 });
export const useUsageHistory = (id: string, timeframe: Timeframe) => useQuery(usageHistoryQueryOptions(id, timeframe));

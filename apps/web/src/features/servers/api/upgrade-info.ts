import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UpgradeInfo } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// GET /api/shop/upgrade/:serverId — prefill of /upgrade/kvm-server/:serverId (404 unless the caller owns the server).
export const getUpgradeInfo = (serverId: string) => api<UpgradeInfo>(`/shop/upgrade/${encodeURIComponent(serverId)}`);
export const upgradeInfoQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: ['shop', 'upgrade', serverId], queryFn: () => getUpgradeInfo(serverId), retry: false, staleTime: 0 });
export const useUpgradeInfo = (serverId: string, enabled = true) => useQuery({ ...upgradeInfoQueryOptions(serverId), enabled });

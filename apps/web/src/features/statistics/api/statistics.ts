import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { statisticsMessages, type Statistics, type StatisticsTable } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/files.ts';

export interface MonthRange { from: string; to: string }

const search = ({ from, to }: MonthRange) => new URLSearchParams({ from, to }).toString();

// GET /api/admin/statistics — owner only.
export const getStatistics = (range: MonthRange, signal?: AbortSignal) => api<Statistics>(`/admin/statistics?${search(range)}`, { signal });
export const useStatistics = (range: MonthRange | null) =>
  useQuery({
    queryKey: ['statistics', range],
    queryFn: ({ signal }) => getStatistics(range!, signal),
    enabled: range !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });

// GET /api/admin/statistics/export.csv — one table of the page, formula-escaped on the server.
export const exportStatistics = (table: StatisticsTable, range: MonthRange) =>
  downloadFile(`/admin/statistics/export.csv?table=${table}&${search(range)}`, `statistik-${table}.csv`, statisticsMessages.exportFailed);

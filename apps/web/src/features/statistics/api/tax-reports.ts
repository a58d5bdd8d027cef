import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { taxReportMessages, type TaxQuarter, type TaxQuarterReports, type TaxThreshold } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/files.ts';

// GET /api/admin/statistics/tax/threshold — owner only.
export const getTaxThreshold = (signal?: AbortSignal) => api<TaxThreshold>('/admin/statistics/tax/threshold', { signal });
export const useTaxThreshold = () => useQuery({ queryKey: ['statistics', 'tax', 'threshold'], queryFn: ({ signal }) => getTaxThreshold(signal), retry: false });

// GET /api/admin/statistics/tax/reports?quarter= — the lines of both reports, for the preview.
export const getTaxQuarterReports = (quarter: TaxQuarter, signal?: AbortSignal) => api<TaxQuarterReports>(`/admin/statistics/tax/reports?quarter=${quarter}`, { signal });
export const useTaxQuarterReports = (quarter: TaxQuarter) =>
  useQuery({
    queryKey: ['statistics', 'tax', 'reports', quarter],
    queryFn: ({ signal }) => getTaxQuarterReports(quarter, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });

// GET /api/admin/statistics/tax/{zm,oss}.csv?quarter= — with the session's token (links cannot carry it).
export type TaxReportFile = 'zm' | 'oss';
export const downloadTaxReport = (report: TaxReportFile, quarter: TaxQuarter) =>
  downloadFile(`/admin/statistics/tax/${report}.csv?quarter=${quarter}`, `${report}-${quarter}.csv`, taxReportMessages.downloadFailed);

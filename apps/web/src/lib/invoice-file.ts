import { downloadFile } from './files.ts';

export type InvoiceFormat = 'pdf' | 'xrechnung';

export const DOWNLOAD_FAILED = 'Die Rechnung konnte nicht heruntergeladen werden. Bitte versuchen Sie es später erneut.';

export { FileTransferError as DownloadError } from './files.ts';

/** Fetches an invoice file with the bearer token and hands it to the browser as a download. */
export const downloadInvoiceFile = (invoiceId: string, format: InvoiceFormat, fallbackName: string): Promise<string> =>
  downloadFile(`/invoices/${encodeURIComponent(invoiceId)}/${format}`, fallbackName, DOWNLOAD_FAILED);

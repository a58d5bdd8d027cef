import { useState } from 'react';
import { toast } from 'sonner';
import { FileCode2, FileDown } from 'lucide-react';
import { shopMessages } from '@hp/contract';
import { Button } from '../ui/button.tsx';
import { DOWNLOAD_FAILED, downloadInvoiceFile, DownloadError, type InvoiceFormat } from '../../lib/invoice-file.ts';

/**
 * "PDF" and "E-Rechnung (XML)" buttons of one invoice. `label` names the invoice for screen readers
 * ("Rechnung RE-2026-000001"), so every button on a list page has a distinct name.
 */
export function InvoiceDownloads({ invoiceId, fileBase, label, size = 'sm' }: { invoiceId: string; fileBase: string; label: string; size?: 'sm' | 'md' }) {
  const [pending, setPending] = useState<InvoiceFormat | null>(null);

  const download = async (format: InvoiceFormat) => {
    if (pending) return;
    setPending(format);
    // Portal spec §8: the PDF request shows an info toast for 5 s.
    if (format === 'pdf') toast.info(shopMessages.pdfNotice, { duration: 5000 });
    try {
      await downloadInvoiceFile(invoiceId, format, `${fileBase}.${format === 'pdf' ? 'pdf' : 'xml'}`);
    } catch (err) {
      toast.error(err instanceof DownloadError ? err.message : DOWNLOAD_FAILED, { duration: 7000 });
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="flex flex-wrap gap-2 whitespace-nowrap">
      <Button variant="outline" size={size} loading={pending === 'pdf'} disabled={pending !== null} onClick={() => download('pdf')}>
        {pending !== 'pdf' && <FileDown className="size-4 shrink-0" aria-hidden="true" />}
        PDF<span className="sr-only"> herunterladen: {label}</span>
      </Button>
      <Button variant="outline" size={size} loading={pending === 'xrechnung'} disabled={pending !== null} onClick={() => download('xrechnung')}>
        {pending !== 'xrechnung' && <FileCode2 className="size-4 shrink-0" aria-hidden="true" />}
        E-Rechnung (XML)<span className="sr-only"> herunterladen: {label}</span>
      </Button>
    </div>
  );
}

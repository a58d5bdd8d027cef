import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { AlertCircle, Download, Loader2, Trash2, Upload, X } from 'lucide-react';
import {
  ATTACHMENT_ACCEPT, MAX_ATTACHMENT_BYTES, customerDocumentMessages as docm, formatDayMonthYear,
  type CustomerDetail, type CustomerDocument,
} from '@hp/contract';
import { Card } from '../../../components/ui/card.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { ListState } from '../../../components/ui/list-state.tsx';
import { formatSize } from '../../../lib/files.ts';
import { cn } from '../../../lib/cn.ts';
import { downloadCustomerDocument, useCustomerDocuments, useDeleteCustomerDocument, useUploadCustomerDocument } from '../api/customer-documents.ts';

const errorText = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);

interface Upload { key: string; name: string; state: 'uploading' | 'failed'; error?: string }

/**
 * "Hochgeladene Dokumente" in the customer's tab "Dokumente": contracts and other files staff keep for
 * the customer. Each chosen file uploads at once (state and German error per file); downloads go
 * through fetch with the token (never a link); deleting asks first. A deleted customer's documents stay
 * (business records) and can still be downloaded, but not changed.
 */
export function CustomerDocuments({ customer }: { customer: CustomerDetail }) {
  const documents = useCustomerDocuments(customer.id);
  const upload = useUploadCustomerDocument(customer.id);
  const remove = useDeleteCustomerDocument(customer.id);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [description, setDescription] = useState('');
  const counter = useRef(0);
  const inputId = useId();
  const items = documents.data?.documents ?? [];
  const isDeleted = customer.deletedAt !== null;

  const settle = (key: string, error?: string) =>
    setUploads((list) => (error ? list.map((u) => (u.key === key ? { ...u, state: 'failed' as const, error } : u)) : list.filter((u) => u.key !== key)));

  const add = (chosen: FileList) => {
    const label = description.trim();
    for (const file of Array.from(chosen)) {
      counter.current += 1;
      const key = `d${counter.current}`;
      if (file.size > MAX_ATTACHMENT_BYTES) {
        setUploads((list) => [...list, { key, name: file.name, state: 'failed', error: docm.tooLarge }]);
        continue;
      }
      setUploads((list) => [...list, { key, name: file.name, state: 'uploading' }]);
      upload.mutateAsync({ file, description: label }).then(
        (doc) => {
          settle(key);
          toast.success(`${docm.uploaded} ${doc.name}`);
        },
        (err: unknown) => settle(key, errorText(err, docm.uploadFailed)),
      );
    }
    setDescription('');
  };

  const download = async (doc: CustomerDocument) => {
    try {
      await downloadCustomerDocument(customer.id, doc);
    } catch (err) {
      toast.error(errorText(err, docm.downloadFailed));
    }
  };

  const confirmDelete = async (doc: CustomerDocument) => {
    try {
      await remove.mutateAsync(doc.id);
      toast.success(docm.deleted);
    } catch (err) {
      toast.error(errorText(err, docm.deleteFailed));
      throw err;
    }
  };

  return (
    <Card className="p-4">
      <h2 className="font-semibold text-slate-900">Hochgeladene Dokumente</h2>
      {isDeleted ? (
        <p className="mt-1 text-sm text-slate-600">Das Konto wurde gelöscht. Die Dokumente bleiben als Geschäftsunterlagen erhalten und können nicht mehr geändert werden.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">Verträge und andere Unterlagen zum Kunden: PDF, Bilder (PNG, JPEG, GIF, WebP) oder Textdateien, höchstens 10 MB pro Datei.</p>
          <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
            <Field label="Beschreibung (optional)" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} className="sm:min-w-0 sm:flex-1" placeholder="z. B. Rahmenvertrag 2026" />
            <div className="shrink-0">
              <input
                id={inputId}
                type="file"
                multiple
                accept={ATTACHMENT_ACCEPT}
                className="peer sr-only"
                onChange={(e) => {
                  if (e.target.files?.length) add(e.target.files);
                  e.target.value = '';
                }}
              />
              <label htmlFor={inputId} className={buttonClass('primary', 'md', 'w-full cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 sm:w-auto')}>
                <Upload className="size-4" aria-hidden="true" /> Dokument hochladen
              </label>
            </div>
          </div>
          {uploads.length > 0 && (
            <ul className="mt-3 space-y-2" aria-label="Uploads">
              {uploads.map((u) => (
                <li key={u.key} className={cn('flex flex-wrap items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1', u.state === 'failed' ? 'bg-red-50 text-red-800 ring-red-300' : 'bg-slate-50 text-slate-800 ring-slate-200')}>
                  {u.state === 'uploading'
                    ? <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />
                    : <AlertCircle className="size-4 shrink-0" aria-hidden="true" />}
                  <span className="min-w-0 break-all font-medium">{u.name}</span>
                  {u.state === 'uploading' ? <span role="status">Wird hochgeladen …</span> : <span role="alert">{u.error}</span>}
                  {u.state === 'failed' && (
                    <button type="button" onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))} className="ml-auto rounded-full p-1 hover:bg-red-100" aria-label={`Meldung zu ${u.name} schließen`}>
                      <X className="size-4" aria-hidden="true" />
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <div className="mt-4">
        <ListState query={documents} isEmpty={!items.length} loadingLabel="Lade Dokumente …" errorText="Die Dokumente konnten nicht geladen werden." empty={<p className="text-sm text-slate-600">{docm.none}</p>}>
          <ul className="divide-y divide-slate-200" aria-label="Hochgeladene Dokumente">
            {items.map((doc) => (
              <li key={doc.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="break-all font-medium text-slate-900">{doc.name}</p>
                  {doc.description && <p className="break-words text-sm text-slate-700">{doc.description}</p>}
                  <p className="text-xs text-slate-600">{formatSize(doc.size)} · {formatDayMonthYear(doc.createdAt)} · hochgeladen von {doc.uploadedBy}</p>
                </div>
                <div className="flex shrink-0 flex-wrap gap-2">
                  <Button size="sm" variant="outline" onClick={() => void download(doc)}>
                    <Download className="size-4" aria-hidden="true" /> Herunterladen<span className="sr-only"> {doc.name}</span>
                  </Button>
                  {!isDeleted && (
                    <ConfirmDialog
                      trigger={<Button size="sm" variant="outline"><Trash2 className="size-4" aria-hidden="true" /> Löschen<span className="sr-only"> {doc.name}</span></Button>}
                      title="Dokument löschen?"
                      description={`„${doc.name}“: ${docm.confirmDelete}`}
                      onConfirm={() => confirmDelete(doc)}
                    />
                  )}
                </div>
              </li>
            ))}
          </ul>
        </ListState>
      </div>
    </Card>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { AlertCircle, FileText, Loader2, Paperclip, X } from 'lucide-react';
import { ATTACHMENT_ACCEPT, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE, ticketMessages as m, type TicketAttachment } from '@hp/contract';
import { downloadFile, fetchFile, formatSize } from '../../../lib/files.ts';
import { cn } from '../../../lib/cn.ts';

/** How a chat reaches its files: the customer's or the staff routes. */
export interface ChatFiles {
  upload: (file: File) => Promise<TicketAttachment>;
  /** The API path of a file for download and preview. */
  path: (fileId: string) => string;
}


async function download(files: ChatFiles, attachment: TicketAttachment) {
  try {
    await downloadFile(files.path(attachment.id), attachment.name, m.downloadFailed);
  } catch (err) {
    toast.error(err instanceof Error && err.message ? err.message : m.downloadFailed);
  }
}

/** An image preview: the bytes come through the authorised download route and show from a blob: URL. */
function ImagePreview({ files, attachment, onLight }: { files: ChatFiles; attachment: TicketAttachment; onLight: boolean }) {
  const path = files.path(attachment.id);
  const blob = useQuery({ queryKey: ['ticket-attachment', path], queryFn: ({ signal }) => fetchFile(path, m.downloadFailed, signal).then((f) => f.blob), staleTime: Infinity, gcTime: 5 * 60_000, retry: false });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob.data) return;
    const objectUrl = URL.createObjectURL(blob.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [blob.data]);
  return (
    <button type="button" onClick={() => void download(files, attachment)} className="block overflow-hidden rounded-lg ring-1 ring-slate-300 focus-visible:outline-2 focus-visible:outline-offset-2" aria-label={`${attachment.name} herunterladen`} title={`${attachment.name} herunterladen`}>
      {url
        ? <img src={url} alt={`Vorschau von ${attachment.name}`} className="max-h-48 min-h-16 min-w-16 max-w-full bg-white object-contain" onError={() => setUrl(null)} />
        : <span className={cn('flex h-24 w-32 items-center justify-center text-xs', onLight ? 'text-slate-600' : 'text-white')}>{blob.isError || (blob.isSuccess && !url) ? 'Vorschau nicht verfügbar' : 'Lade Vorschau …'}</span>}
    </button>
  );
}

/** The files of a message: image previews and download buttons (never opened inline). */
export function AttachmentList({ attachments, files, onLight }: { attachments: TicketAttachment[]; files: ChatFiles; onLight: boolean }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-col gap-2" aria-label="Anhänge">
      {attachments.map((a) => (
        <li key={a.id} className="min-w-0">
          {a.preview && <ImagePreview files={files} attachment={a} onLight={onLight} />}
          <button
            type="button"
            onClick={() => void download(files, a)}
            className={cn('mt-1 inline-flex max-w-full items-center gap-1.5 text-left text-sm underline', onLight ? 'text-brand-700' : 'text-white')}
          >
            <FileText className="size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-all">{a.name}</span>
            <span className={cn('shrink-0 text-xs no-underline', onLight ? 'text-slate-600' : 'text-white/90')}>({formatSize(a.size)})</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export interface PendingFile {
  key: string;
  name: string;
  size: number;
  state: 'uploading' | 'done' | 'failed';
  attachment?: TicketAttachment;
  error?: string;
}

/**
 * Files chosen for the next message: each uploads at once (the server checks type and size by the
 * bytes), shows its state, and can be removed before sending.
 */
export function useFileQueue(files: ChatFiles | undefined) {
  const [queue, setQueue] = useState<PendingFile[]>([]);
  const counter = useRef(0);
  const update = (key: string, patch: Partial<PendingFile>) => setQueue((q) => q.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  const add = (chosen: FileList | File[]) => {
    if (!files) return;
    const list = [...chosen];
    const room = MAX_ATTACHMENTS_PER_MESSAGE - queue.filter((f) => f.state !== 'failed').length;
    if (list.length > room) toast.error(m.tooManyAttachments);
    for (const file of list.slice(0, Math.max(0, room))) {
      counter.current += 1;
      const key = `f${counter.current}`;
      if (file.size > MAX_ATTACHMENT_BYTES) {
        setQueue((q) => [...q, { key, name: file.name, size: file.size, state: 'failed', error: m.attachmentTooLarge }]);
        continue;
      }
      setQueue((q) => [...q, { key, name: file.name, size: file.size, state: 'uploading' }]);
      files.upload(file).then(
        (attachment) => update(key, { state: 'done', attachment }),
        (err: unknown) => update(key, { state: 'failed', error: err instanceof Error && err.message ? err.message : m.uploadFailed }),
      );
    }
  };
  return {
    queue,
    add,
    remove: (key: string) => setQueue((q) => q.filter((f) => f.key !== key)),
    clear: () => setQueue([]),
    ids: queue.filter((f) => f.state === 'done').map((f) => f.attachment!.id),
    uploading: queue.some((f) => f.state === 'uploading'),
  };
}

/** The paperclip button with its hidden file input. */
export function AttachButton({ onFiles, disabled, id }: { onFiles: (files: FileList) => void; disabled?: boolean; id: string }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          if (e.target.files?.length) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
      <button
        type="button"
        disabled={disabled}
        onClick={() => input.current?.click()}
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-50"
        aria-label="Datei anhängen"
        title="Datei anhängen (Bild, PDF, Text; höchstens 10 MB, 5 Dateien)"
      >
        <Paperclip className="size-5" aria-hidden="true" />
      </button>
    </>
  );
}

export function PendingFiles({ queue, onRemove }: { queue: PendingFile[]; onRemove: (key: string) => void }) {
  if (queue.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Ausgewählte Dateien">
      {queue.map((f) => (
        <li key={f.key} className={cn('flex max-w-full flex-wrap items-center gap-1.5 rounded-2xl px-3 py-1 text-sm ring-1', f.state === 'failed' ? 'bg-red-50 text-red-800 ring-red-300' : 'bg-white text-slate-800 ring-slate-300')}>
          {f.state === 'uploading' && <Loader2 className="size-4 shrink-0 animate-spin" aria-hidden="true" />}
          {f.state === 'failed' && <AlertCircle className="size-4 shrink-0" aria-hidden="true" />}
          {f.state === 'done' && <Paperclip className="size-4 shrink-0" aria-hidden="true" />}
          <span className="min-w-0 break-all">{f.name}</span>
          <span className="shrink-0 text-xs">
            {f.state === 'uploading' ? 'wird hochgeladen …' : f.state === 'failed' ? '' : formatSize(f.size)}
          </span>
          {f.state === 'failed' && <span role="alert" className="text-xs">{f.error}</span>}
          <button type="button" onClick={() => onRemove(f.key)} className="rounded-full p-0.5 hover:bg-slate-200" aria-label={`${f.name} entfernen`}>
            <X className="size-3.5" aria-hidden="true" />
          </button>
        </li>
      ))}
    </ul>
  );
}

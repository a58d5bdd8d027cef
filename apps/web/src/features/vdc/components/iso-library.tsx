import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Disc3, Play, Trash2, Upload, X } from 'lucide-react';
import { VDC_ISO_MIN_BYTES, type VdcDetail, type VdcIso } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { ApiRequestError, api } from '../../../lib/api-client.ts';
import { createIso, useDeleteIso, vdcKey } from '../api/vdcs.ts';
import { readIsoOffset, sendIsoFrom, UploadPausedError } from '../api/iso-upload.ts';
import { errorText, formatBytes } from './format.ts';

type Upload =
  | { phase: 'idle' }
  | { phase: 'sending'; iso: VdcIso; file: File; sent: number; retry: number }
  | { phase: 'paused'; iso: VdcIso; file: File; sent: number; message: string }
  | { phase: 'failed'; name: string; message: string };

// ISO 9660 (ECMA-119 §6.2, §8.1): 16 sectors of 2048 bytes of system area, then the volume descriptors,
// each starting with its type byte and the identifier "CD001".
const SECTOR = 2048;
const VOLUME_DESCRIPTOR_AT = 16 * SECTOR;

async function hasIsoSignature(file: Blob): Promise<boolean> {
  const bytes = new Uint8Array(await file.slice(VOLUME_DESCRIPTOR_AT + 1, VOLUME_DESCRIPTOR_AT + 6).arrayBuffer());
  return String.fromCharCode(...bytes) === 'CD001';
}

/**
 * What the browser can tell before sending a byte: the name's ending, the size (an image has at least its
 * system area and two descriptors; the library's free space) and the ISO 9660 signature. The server
 * checks all of it again.
 */
export async function checkIsoFile(file: File, freeBytes: number): Promise<string | null> {
  if (!/\.iso$/i.test(file.name)) return 'Bitte wählen Sie ein ISO-Image (Dateiendung .iso).';
  if (file.size === 0) return 'Die Datei ist leer.';
  if (file.size > freeBytes) return `Das Image ist ${formatBytes(file.size)} groß, in Ihrer ISO-Bibliothek sind noch ${formatBytes(freeBytes)} frei. Löschen Sie ein Image, das Sie nicht mehr brauchen.`;
  if (file.size < VDC_ISO_MIN_BYTES || !await hasIsoSignature(file)) return 'Die Datei ist kein ISO-9660-Image. Bitte wählen Sie ein ISO-Image.';
  return null;
}

/** One upload at a time: announce, send in chunks, pause after the retries, resume from the server's offset, cancel. */
function useIsoUpload(vdcId: string) {
  const client = useQueryClient();
  const [upload, setUpload] = useState<Upload>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: vdcKey(vdcId), exact: true });
  useEffect(() => () => abort.current?.abort(), []);

  async function run(iso: VdcIso, file: File, from: () => Promise<number>) {
    const controller = new AbortController();
    abort.current = controller;
    setUpload({ phase: 'sending', iso, file, sent: iso.receivedBytes, retry: 0 });
    try {
      const offset = await from();
      await sendIsoFrom(vdcId, iso.id, file, offset, {
        signal: controller.signal,
        onProgress: (sent) => setUpload({ phase: 'sending', iso, file, sent, retry: 0 }),
        onRetry: (retry) => setUpload((u) => (u.phase === 'sending' ? { ...u, retry } : u)),
      });
      setUpload({ phase: 'idle' });
      toast.success(`${iso.name} wurde hochgeladen und wird jetzt geprüft.`);
    } catch (err) {
      if (controller.signal.aborted) return;
      if (err instanceof UploadPausedError) {
        setUpload((u) => ({ phase: 'paused', iso, file, sent: u.phase === 'sending' ? u.sent : iso.receivedBytes, message: err.message }));
      } else {
        setUpload({ phase: 'failed', name: iso.name, message: errorText(err, 'Der Upload ist fehlgeschlagen. Bitte versuchen Sie es erneut.') });
      }
    } finally {
      if (abort.current === controller) abort.current = null;
      void refresh();
    }
  }

  return {
    upload,
    /** A new image: announced to the server first (name and size are checked against the quota there too). */
    async start(file: File, freeBytes: number) {
      const refused = await checkIsoFile(file, freeBytes);
      if (refused) return setUpload({ phase: 'failed', name: file.name, message: refused });
      let iso: VdcIso;
      try {
        iso = await createIso(vdcId, { name: file.name, sizeBytes: file.size });
      } catch (err) {
        return setUpload({ phase: 'failed', name: file.name, message: errorText(err, 'Der Upload konnte nicht begonnen werden. Bitte versuchen Sie es erneut.') });
      }
      void refresh();
      await run(iso, file, async () => 0);
    },
    /** "Fortsetzen": ask the server how much it has, then go on from there. */
    resume() {
      if (upload.phase !== 'paused') return;
      void run(upload.iso, upload.file, () => readIsoOffset(vdcId, upload.iso.id));
    },
    /** An unfinished image from the list (another visit): the same file again, then on from the server's offset. */
    resumeWith(iso: VdcIso, file: File) {
      if (file.size !== iso.sizeBytes) {
        return setUpload({ phase: 'failed', name: iso.name, message: `Bitte wählen Sie dieselbe Datei wie beim Start des Uploads (${iso.name}, ${formatBytes(iso.sizeBytes)}).` });
      }
      void run(iso, file, () => readIsoOffset(vdcId, iso.id));
    },
    /** Stops and removes the unfinished image, so nothing is left behind. */
    async cancel() {
      const iso = upload.phase === 'sending' || upload.phase === 'paused' ? upload.iso : null;
      abort.current?.abort();
      setUpload({ phase: 'idle' });
      if (!iso) return;
      try {
        await api<null>(`/vdcs/${encodeURIComponent(vdcId)}/isos/${encodeURIComponent(iso.id)}`, { method: 'DELETE' });
      } catch (err) {
        if (!(err instanceof ApiRequestError && err.status === 404)) toast.error(errorText(err, 'Das Image konnte nicht entfernt werden.'));
      }
      void refresh();
    },
    dismiss: () => setUpload({ phase: 'idle' }),
  };
}

const percentOf = (sent: number, total: number) => (total > 0 ? Math.floor((sent / total) * 100) : 0);

/** The ISO library: upload (chunked, resumable), the images with their state, delete while no VM uses one. */
export function IsoLibrary({ detail, canChange }: { detail: VdcDetail; canChange: boolean }) {
  const iso = useIsoUpload(detail.id);
  const { upload } = iso;
  const input = useRef<HTMLInputElement>(null);
  const resumeInput = useRef<HTMLInputElement>(null);
  const [resuming, setResuming] = useState<VdcIso | null>(null);
  const remove = useDeleteIso(detail.id);
  const freeBytes = Math.max(0, detail.isoLibrary.total - detail.isoLibrary.used);
  const busy = upload.phase === 'sending' || upload.phase === 'paused';
  const vmName = (id: string) => detail.vmList.find((vm) => vm.id === id)?.name ?? id;
  const activeIsoId = busy ? upload.iso.id : null;

  const columns: Column<VdcIso>[] = [
    { header: 'Name', rowHeader: true, cell: (i) => <span className="break-all">{i.name}</span> },
    { header: 'Größe', cell: (i) => formatBytes(i.sizeBytes), className: 'whitespace-nowrap' },
    {
      header: 'Status',
      cell: (i) => (i.status === 'ready' ? <Badge tone="success">Bereit</Badge>
        : i.status === 'failed' ? <span><Badge tone="danger">Fehlgeschlagen</Badge>{i.statusMessage && <span className="mt-1 block text-xs text-red-700">{i.statusMessage}</span>}</span>
          : i.receivedBytes >= i.sizeBytes ? <Badge tone="info">Wird geprüft</Badge>
            : <Badge tone="warning">Unvollständig ({percentOf(i.receivedBytes, i.sizeBytes)} %)</Badge>),
    },
    { header: 'Eingelegt in', cell: (i) => (i.attachedTo.length ? i.attachedTo.map(vmName).join(', ') : '–') },
    {
      header: 'Aktionen',
      actions: true,
      cell: (i) => (
        <div className="flex flex-wrap justify-end gap-2">
          {i.status === 'uploading' && i.receivedBytes < i.sizeBytes && i.id !== activeIsoId && (
            <Button size="sm" variant="outline" disabled={busy || !canChange} onClick={() => { setResuming(i); resumeInput.current?.click(); }} aria-label={`Upload von ${i.name} fortsetzen`}>
              <Play className="size-4" aria-hidden="true" /> Fortsetzen
            </Button>
          )}
          <ConfirmDialog
            title={`${i.name} löschen?`}
            description={`Das Image wird aus Ihrer ISO-Bibliothek gelöscht; ${formatBytes(i.sizeBytes)} werden dort frei.`}
            onConfirm={async () => {
              try {
                await remove.mutateAsync(i.id);
                toast.success(`${i.name} wurde gelöscht.`);
              } catch (err) {
                toast.error(errorText(err, 'Das Image konnte nicht gelöscht werden.'));
                throw err;
              }
            }}
            trigger={(
              <Button size="sm" variant="outline" disabled={i.attachedTo.length > 0 || i.id === activeIsoId} aria-label={`${i.name} löschen`}
                title={i.attachedTo.length > 0 ? 'Eingelegte Images können nicht gelöscht werden. Nehmen Sie es zuerst aus dem Laufwerk.' : undefined}>
                <Trash2 className="size-4" aria-hidden="true" /> Löschen
              </Button>
            )}
          />
        </div>
      ),
    },
  ];

  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby="vdc-isos-heading">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="vdc-isos-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900"><Disc3 className="size-5 text-brand-700" aria-hidden="true" /> ISO-Bibliothek</h2>
            <p className="mt-1 text-sm text-slate-600">Eigene Installationsmedien (ISO 9660) für Ihre VMs. Frei: {formatBytes(freeBytes)} von {formatBytes(detail.isoLibrary.total)}.</p>
          </div>
          <Button onClick={() => input.current?.click()} disabled={busy || !canChange}><Upload className="size-4" aria-hidden="true" /> ISO hochladen</Button>
          <input ref={input} type="file" accept=".iso,application/x-iso9660-image" className="sr-only" tabIndex={-1} aria-label="ISO-Datei auswählen"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void iso.start(file, freeBytes);
            }} />
          <input ref={resumeInput} type="file" accept=".iso,application/x-iso9660-image" className="sr-only" tabIndex={-1} aria-label="Dieselbe ISO-Datei erneut auswählen"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file && resuming) iso.resumeWith(resuming, file);
              setResuming(null);
            }} />
        </div>

        {(upload.phase === 'sending' || upload.phase === 'paused') && (
          <div className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
            <p id="vdc-upload-label" className="text-sm font-medium text-slate-900 [overflow-wrap:anywhere]">Upload von {upload.iso.name}</p>
            <div className="mt-2 h-3 rounded-full bg-slate-200" role="progressbar" aria-labelledby="vdc-upload-label" aria-valuemin={0} aria-valuemax={100}
              aria-valuenow={percentOf(upload.sent, upload.file.size)} aria-valuetext={`${formatBytes(upload.sent)} von ${formatBytes(upload.file.size)} (${percentOf(upload.sent, upload.file.size)} %)`}>
              <div className="h-3 rounded-full bg-brand-600 transition-[width]" style={{ width: `${percentOf(upload.sent, upload.file.size)}%` }} />
            </div>
            <p className="mt-2 text-sm text-slate-700" aria-live="polite">
              {formatBytes(upload.sent)} von {formatBytes(upload.file.size)} ({percentOf(upload.sent, upload.file.size)} %)
              {upload.phase === 'sending' && upload.retry > 0 && <> · Verbindung unterbrochen, neuer Versuch ({upload.retry}) …</>}
            </p>
            {upload.phase === 'paused' && <Alert tone="warning" className="mt-3">{upload.message}</Alert>}
            <div className="mt-3 flex flex-wrap gap-2">
              {upload.phase === 'paused' && <Button size="sm" onClick={iso.resume}><Play className="size-4" aria-hidden="true" /> Fortsetzen</Button>}
              <Button size="sm" variant="outline" onClick={() => void iso.cancel()}><X className="size-4" aria-hidden="true" /> Abbrechen</Button>
            </div>
          </div>
        )}
        {upload.phase === 'failed' && (
          <Alert tone="error" className="mt-4">
            <p><span className="font-semibold [overflow-wrap:anywhere]">{upload.name}:</span> {upload.message}</p>
            <button type="button" className="mt-1 font-medium underline" onClick={iso.dismiss}>Hinweis schließen</button>
          </Alert>
        )}

        <div className="mt-4">
          {detail.isos.length === 0
            ? <p className="text-sm text-slate-600">Noch keine Images. Laden Sie ein ISO-Image hoch, um eine VM davon zu installieren.</p>
            : <DataTable caption="ISO-Images" columns={columns} rows={detail.isos} rowKey={(i) => i.id} />}
        </div>
      </section>
    </Card>
  );
}

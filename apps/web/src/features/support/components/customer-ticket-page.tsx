import { Suspense } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft } from 'lucide-react';
import { ticketMessages as m } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useProductViews } from '../../../lib/product-views.tsx';
import { paths } from '../../../config/paths.ts';
import { ticketAttachmentPath, uploadTicketAttachment, useCloseTicket, useSendTicketMessage, useTicket, useTicketMessages } from '../api/tickets.ts';
import { ChatComposer, ChatMessages, draftKey, readDraft } from './chat.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import type { ChatFiles } from './attachments.tsx';
import { CustomerSecretsCard } from './ticket-secrets.tsx';
import { formatDateTime, TicketStatusBadge, TicketTypeBadge } from './ticket-badges.tsx';

/** Spec "Ticket chat" (customer). Another customer's ticket (API 404) sends the user to /404. */
export default function CustomerTicketPage() {
  const { ticketId = '' } = useParams();
  const ticket = useTicket(ticketId);
  const messages = useTicketMessages(ticketId, ticket.isSuccess);
  const send = useSendTicketMessage(ticketId);
  const close = useCloseTicket(ticketId);
  const views = useProductViews();
  const notFound = ticket.error instanceof ApiRequestError && (ticket.error.status === 404 || ticket.error.status === 400);

  if (notFound) return <Navigate to={paths.notFound404} replace />;
  if (ticket.isPending) return <Spinner label="Lade Ticket …" />;
  if (ticket.isError) return <Alert tone="error">Das Ticket konnte nicht geladen werden. {ticket.error.message}</Alert>;
  const t = ticket.data;
  const closed = t.status === 'closed';

  const files: ChatFiles = { upload: (file) => uploadTicketAttachment(ticketId, file), path: (fileId) => ticketAttachmentPath(ticketId, fileId) };
  const onSend = async (input: { body: string; attachmentIds: string[] }) => {
    try {
      await send.mutateAsync(input);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.sendFailed);
      throw err;
    }
  };
  const onClose = async () => {
    try {
      await close.mutateAsync();
      toast.success(m.closed);
    } catch (err) {
      toast.error(err instanceof ApiRequestError && err.status === 409 ? err.message : m.closeFailed);
    }
  };

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <PageMeta title={t.title} />
      <Link to={paths.dashboard.support} className="inline-flex items-center gap-1 self-start text-sm font-medium text-brand-700 underline"><ArrowLeft className="size-4" aria-hidden="true" /> Zurück zu Support</Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="break-words text-2xl font-bold text-slate-900">{t.title}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <TicketStatusBadge status={t.status} />
            <TicketTypeBadge type={t.type} />
            <span>Erstellt am <time dateTime={t.createdAt}>{formatDateTime(t.createdAt)}</time></span>
            {t.server && <span>· Server {t.server.name}</span>}
          </div>
        </div>
        {!closed && (
          <ConfirmDialog
            trigger={<Button variant="outline" loading={close.isPending}>Ticket schließen</Button>}
            title="Ticket schließen?"
            description="Danach können Sie in diesem Ticket nicht mehr schreiben; hinterlegte vertrauliche Angaben werden gelöscht. Für ein neues Anliegen eröffnen Sie einfach ein neues Ticket."
            confirmLabel="Ticket schließen"
            onConfirm={onClose}
          />
        )}
      </div>
      <Card className="p-4">
        <p className="text-xs font-semibold text-slate-600">Ihre Anfrage</p>
        <p className="mt-1 whitespace-pre-wrap break-words text-slate-900">{t.description}</p>
      </Card>
      <section aria-label="Chat" className="flex flex-col gap-4 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:p-4">
        <ChatMessages query={messages} viewer="customer" files={files} />
        {closed
          ? <ClosedNotice draft={readDraft(draftKey(ticketId, 'customer'))} />
          : <ChatComposer label="Nachricht" placeholder="Nachricht schreiben …" onSend={onSend} files={files} draftKey={draftKey(ticketId, 'customer')} />}
      </section>
      {/* A product's part of its own tickets, e.g. the offers of a "VDC-Anfrage" with "Angebot annehmen". */}
      {views.map(({ kind, TicketPanel }) => TicketPanel && <Suspense key={kind} fallback={null}><TicketPanel ticketId={t.id} type={t.type} closed={closed} viewer="customer" /></Suspense>)}
      <CustomerSecretsCard ticketId={ticketId} closed={closed} />
    </div>
  );
}

/** A ticket closed while the customer was writing: the unsent text stays visible to copy. */
function ClosedNotice({ draft }: { draft: string }) {
  return (
    <Alert tone="info">
      Dieses Ticket ist geschlossen.
      {draft && (
        <>
          {' '}Ihr nicht gesendeter Text – für ein neues Ticket kopieren:
          <span className="mt-2 block whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-sm text-slate-900">{draft}</span>
        </>
      )}
    </Alert>
  );
}

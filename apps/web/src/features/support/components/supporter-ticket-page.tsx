import { Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { ArrowLeft, UserCheck } from 'lucide-react';
import { CustomerServersCard } from '../../../components/staff/customer-servers-card.tsx';
import { serverStatusLabels, serverTaskLabels as taskLabels, ticketMessages as m, ticketStatusLabels, type StaffTicketDetail, type TicketStatusInput } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useProductViews } from '../../../lib/product-views.tsx';
import { paths } from '../../../config/paths.ts';
import { staffAttachmentPath, uploadStaffAttachment, useCloseStaffTicket, useSendStaffMessage, useSetTicketStatus, useStaffTicket, useStaffTicketMessages, useTakeOverTicket } from '../api/staff-tickets.ts';
import { usePresenceHeartbeat } from '../api/presence.ts';
import { ChatMessages } from './chat.tsx';
import { StaffComposer } from './staff-composer.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import type { ChatFiles } from './attachments.tsx';
import { PresenceBanner } from './presence-banner.tsx';
import { StaffSecretsCard } from './ticket-secrets.tsx';
import { formatDateTime, formatWaiting, TicketStatusBadge, TicketTypeBadge } from './ticket-badges.tsx';

const taskStatusLabels = { running: 'Läuft', ok: 'Erfolgreich', failed: 'Fehlgeschlagen' } as const;

const conflictOr = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.status === 409 ? err.message : fallback);

/** Spec "Supporter ticket view": the chat, status, take-over, close, internal notes and the customer. */
export default function SupporterTicketPage() {
  const { ticketId = '' } = useParams();
  const ticket = useStaffTicket(ticketId);
  const messages = useStaffTicketMessages(ticketId, ticket.isSuccess);
  const send = useSendStaffMessage(ticketId);
  const setStatus = useSetTicketStatus(ticketId);
  const takeOver = useTakeOverTicket(ticketId);
  const close = useCloseStaffTicket(ticketId);
  // Presence warns other staff in the same ticket; it never blocks anything here.
  const onDraftChange = usePresenceHeartbeat(ticketId, ticket.isSuccess);

  if (ticket.isPending) return <Spinner label="Lade Ticket …" />;
  if (ticket.isError) {
    const missing = ticket.error instanceof ApiRequestError && (ticket.error.status === 404 || ticket.error.status === 400);
    return <Alert tone="error">{missing ? m.ticketNotFound : `Das Ticket konnte nicht geladen werden. ${ticket.error.message}`}</Alert>;
  }
  const t = ticket.data;
  const closed = t.status === 'closed';

  const files: ChatFiles = { upload: (file) => uploadStaffAttachment(ticketId, file), path: (fileId) => staffAttachmentPath(ticketId, fileId) };
  const answer = async (input: { body: string; attachmentIds: string[] }) => {
    try {
      await send.mutateAsync({ ...input, internal: false });
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.sendFailed);
      throw err;
    }
  };
  const note = async (input: { body: string; attachmentIds: string[] }) => {
    try {
      await send.mutateAsync({ ...input, internal: true });
      toast.success(m.noteSaved);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.sendFailed);
      throw err;
    }
  };
  const onStatus = async (status: TicketStatusInput['status']) => {
    try {
      await setStatus.mutateAsync({ status });
      toast.success(m.statusUpdated);
    } catch (err) {
      toast.error(conflictOr(err, m.statusFailed));
    }
  };
  const onTakeOver = async () => {
    try {
      await takeOver.mutateAsync();
      toast.success(m.takenOver);
    } catch (err) {
      toast.error(conflictOr(err, m.takeOverFailed));
    }
  };
  const onClose = async () => {
    try {
      await close.mutateAsync();
      toast.success(m.closed);
    } catch (err) {
      toast.error(conflictOr(err, m.closeFailedStaff));
    }
  };

  return (
    <div className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <PageMeta title={t.title} />
      <div className="flex min-w-0 flex-col gap-4">
        <Link to={paths.dashboard.myTickets} className="inline-flex items-center gap-1 self-start text-sm font-medium text-brand-700 underline"><ArrowLeft className="size-4" aria-hidden="true" /> Meine Tickets</Link>
        <div>
          <h1 className="break-words text-2xl font-bold text-slate-900">{t.title}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <TicketStatusBadge status={t.status} />
            <TicketTypeBadge type={t.type} />
            <span>Erstellt am <time dateTime={t.createdAt}>{formatDateTime(t.createdAt)}</time></span>
            <span>· Wartet seit: {formatWaiting(t.waitingSince)}</span>
          </div>
          <PresenceBanner ticketId={ticketId} enabled />
        </div>
        <Card className="flex flex-wrap items-end gap-3 p-4">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="ticket-status" className="text-sm font-medium text-slate-800">Status</label>
            <Select id="ticket-status" value={closed ? 'closed' : t.status} disabled={closed || setStatus.isPending} onChange={(e) => void onStatus(e.target.value as TicketStatusInput['status'])}>
              <option value="open">{ticketStatusLabels.open}</option>
              <option value="in_progress">{ticketStatusLabels.in_progress}</option>
              {closed && <option value="closed">{ticketStatusLabels.closed}</option>}
            </Select>
          </div>
          {!t.assignee && !closed && <Button onClick={() => void onTakeOver()} loading={takeOver.isPending}><UserCheck className="size-4" aria-hidden="true" /> Ticket übernehmen</Button>}
          {!closed && (
            <ConfirmDialog
              trigger={<Button variant="outline" loading={close.isPending}>Ticket schließen</Button>}
              title="Ticket schließen?"
              description="Der Kunde erhält eine E-Mail und kann nicht mehr antworten; seine vertraulichen Angaben werden gelöscht."
              confirmLabel="Ticket schließen"
              onConfirm={onClose}
            />
          )}
          <p className="text-sm text-slate-700">{t.assignee ? (t.mine ? 'Sie bearbeiten dieses Ticket.' : `Übernommen von ${t.assignee.name}`) : 'Noch nicht übernommen'}</p>
        </Card>
        <Card className="p-4">
          <p className="text-xs font-semibold text-slate-600">Anfrage des Kunden</p>
          <p className="mt-1 whitespace-pre-wrap break-words text-slate-900">{t.description}</p>
        </Card>
        <section aria-label="Chat" className="flex flex-col gap-4 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:p-4">
          <ChatMessages query={messages} viewer="staff" customerName={t.customer.name} files={files} />
          <StaffComposer ticketId={ticketId} closed={closed} files={files} onAnswer={answer} onNote={note} onDraftChange={onDraftChange} />
        </section>
      </div>
      <CustomerPanel ticket={t} />
    </div>
  );
}

function CustomerPanel({ ticket }: { ticket: StaffTicketDetail }) {
  const c = ticket.customer;
  const server = ticket.affectedServer;
  const views = useProductViews();
  return (
    <aside aria-label="Kunde" className="flex min-w-0 flex-col gap-4">
      {/* A product's part of its own tickets, e.g. the offers of a "VDC-Anfrage". */}
      {views.map(({ kind, TicketPanel }) => TicketPanel && <Suspense key={kind} fallback={null}><TicketPanel ticketId={ticket.id} type={ticket.type} closed={ticket.status === 'closed'} viewer="staff" /></Suspense>)}
      <StaffSecretsCard ticketId={ticket.id} />
      <Card className="p-4">
        <h2 className="font-semibold text-slate-900">Kunde</h2>
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600">Name</dt><dd className="break-words">{c.name}</dd>
          <dt className="text-slate-600">Kundennummer</dt><dd><Link to={paths.dashboard.customerDetails(c.id)} className="text-brand-700 underline" aria-label={`Kundendetails von ${c.name} (Kundennummer ${c.customerNumber})`}>{c.customerNumber}</Link></dd>
          <dt className="text-slate-600">E-Mail</dt><dd className="break-all">{c.email}</dd>
        </dl>
      </Card>
      {server && (
        <Card className="p-4">
          <h2 className="font-semibold text-slate-900">Betroffener Server</h2>
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-600">Name</dt><dd><Link to={paths.dashboard.staffServer(server.id)} className="text-brand-700 underline">{server.name}</Link></dd>
            <dt className="text-slate-600">Status</dt><dd>{serverStatusLabels[server.status] ?? server.status}</dd>
            <dt className="text-slate-600">IP</dt><dd className="font-mono">{server.ip ?? '–'}</dd>
            <dt className="text-slate-600">Cluster</dt><dd>{server.node}</dd>
          </dl>
          <h3 className="mt-3 text-sm font-semibold text-slate-900">Letzte Vorgänge</h3>
          {server.recentTasks.length === 0
            ? <p className="mt-1 text-sm text-slate-600">Keine Vorgänge.</p>
            : (
              <ul className="mt-1 flex flex-col gap-1 text-sm" aria-label="Letzte Vorgänge">
                {server.recentTasks.map((task) => (
                  <li key={task.id} className="flex flex-wrap justify-between gap-x-2">
                    <span>{taskLabels[task.kind] ?? task.kind} · <time dateTime={task.startedAt} className="text-slate-600">{formatDateTime(task.startedAt)}</time></span>
                    <span className={task.status === 'failed' ? 'text-red-700' : task.status === 'running' ? 'text-amber-800' : 'text-emerald-800'}>{taskStatusLabels[task.status]}</span>
                  </li>
                ))}
              </ul>
            )}
        </Card>
      )}
      <CustomerServersCard title="Server des Kunden" servers={c.servers} />
    </aside>
  );
}

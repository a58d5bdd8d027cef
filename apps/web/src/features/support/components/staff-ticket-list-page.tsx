import { Link } from 'react-router';
import { Inbox, ListTodo } from 'lucide-react';
import { ticketStatuses, ticketStatusLabels, ticketTypeLabels, ticketTypes, type StaffTicketRow } from '@hp/contract';
import { buttonClass } from '../../../components/ui/button.tsx';
import type { Column } from '../../../components/ui/table.tsx';
import { ListPage } from '../../../components/list-page/list-page.tsx';
import { PageHeader } from '../../../components/list-page/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useMyTickets, useUnassignedTickets } from '../api/staff-tickets.ts';
import { formatDateTime, formatWaiting, TicketStatusBadge, TicketTypeBadge } from './ticket-badges.tsx';

const sortOptions = [
  { value: '-createdAt', label: 'Neueste zuerst' },
  { value: 'createdAt', label: 'Älteste zuerst' },
  { value: '-waiting', label: 'Längste Wartezeit' },
  { value: 'status', label: 'Status (aufsteigend)' },
  { value: '-status', label: 'Status (absteigend)' },
  { value: 'type', label: 'Art (aufsteigend)' },
  { value: '-type', label: 'Art (absteigend)' },
];

const columns: Column<StaffTicketRow>[] = [
  { header: 'Titel', rowHeader: true, className: 'max-w-72 break-words', cell: (t) => t.title },
  { header: 'Kunde', cell: (t) => <><span className="block font-medium">{t.customer.name}</span><span className="block text-xs text-slate-600">{t.customer.customerNumber}</span></> },
  { header: 'Art', cell: (t) => <TicketTypeBadge type={t.type} /> },
  { header: 'Status', cell: (t) => <TicketStatusBadge status={t.status} /> },
  { header: 'Erstellt', className: 'whitespace-nowrap', cell: (t) => <time dateTime={t.createdAt}>{formatDateTime(t.createdAt)}</time> },
  { header: 'Wartet seit', className: 'whitespace-nowrap', cell: (t) => formatWaiting(t.waitingSince) },
  {
    header: 'Aktionen',
    actions: true,
    cell: (t) => <Link to={paths.supporterTicket(t.id)} className="font-medium text-brand-700 underline" aria-label={`Details zu Ticket „${t.title}“`}>Details</Link>,
  },
];

const filters = [
  { param: 'status', label: 'Status', allLabel: 'Alle Status', options: ticketStatuses.map((s) => ({ value: s, label: ticketStatusLabels[s] })) },
  { param: 'type', label: 'Art', allLabel: 'Alle Arten', options: ticketTypes.map((t) => ({ value: t, label: ticketTypeLabels[t] })) },
];

/**
 * Spec "Support overview" (all unassigned open tickets) and "My tickets" (the tickets the signed-in staff
 * member took over; docs/decisions/014): one table, search, filters, sort and paging on the server.
 */
export default function StaffTicketListPage({ scope }: { scope: 'unassigned' | 'mine' }) {
  const overview = scope === 'unassigned';
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title={overview ? 'Ticket-Übersicht' : 'Meine Tickets'}
        description={overview ? 'Alle offenen Tickets, die noch niemand übernommen hat.' : 'Die Tickets, die Sie übernommen haben.'}
        actions={overview
          ? <Link to={paths.dashboard.myTickets} className={buttonClass('outline')}><ListTodo className="size-4" aria-hidden="true" /> Meine Tickets</Link>
          : <Link to={paths.dashboard.supportOverview} className={buttonClass('outline')}><Inbox className="size-4" aria-hidden="true" /> Alle Tickets</Link>}
      />
      <ListPage
        useList={overview ? useUnassignedTickets : useMyTickets}
        search={{ label: 'Tickets suchen', placeholder: 'Suche nach Titel oder Kundenname …' }}
        filters={overview ? filters.map((f) => (f.param === 'status' ? { ...f, options: f.options.filter((o) => o.value !== 'closed') } : f)) : filters}
        sortOptions={sortOptions}
        table={{ caption: overview ? 'Offene Tickets' : 'Meine Tickets', columns, rowKey: (t) => t.id }}
        texts={{
          loading: 'Lade Tickets …',
          error: 'Die Tickets konnten nicht geladen werden.',
          empty: overview ? 'Zurzeit wartet kein offenes Ticket auf Übernahme.' : 'Sie haben noch keine Tickets übernommen.',
          noMatch: (q) => `Keine Tickets zu „${q}“ gefunden.`,
          pagination: 'Seiten der Tickets',
        }}
      />
    </div>
  );
}

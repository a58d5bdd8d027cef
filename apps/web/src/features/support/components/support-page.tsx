import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Plus } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ListState } from '../../../components/ui/list-state.tsx';
import { PageHeader } from '../../../components/list-page/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useTickets } from '../api/tickets.ts';
import { NewTicketDialog } from './new-ticket-dialog.tsx';
import { formatDate, TicketStatusBadge, TicketTypeBadge } from './ticket-badges.tsx';

/** Spec "Support" (customer): the own tickets, newest first, and the new-ticket dialog. */
export default function SupportPage() {
  const tickets = useTickets();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const list = tickets.data?.tickets ?? [];

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Support"
        description="Ihre Anfragen an unser Support-Team."
        actions={<Button onClick={() => setCreating(true)}><Plus className="size-4" aria-hidden="true" /> Neues Ticket</Button>}
      />
      <div className="mt-6">
        <ListState
          query={tickets}
          isEmpty={list.length === 0}
          loadingLabel="Lade Tickets …"
          errorText="Die Tickets konnten nicht geladen werden."
          empty={<>Sie haben noch keine Tickets. Mit „Neues Ticket“ erreichen Sie unser Support-Team.</>}
        >
          <ul className="flex flex-col gap-3" aria-label="Meine Tickets">
            {list.map((ticket) => (
              <li key={ticket.id}>
                <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <h2 className="min-w-0 break-words font-semibold text-slate-900">{ticket.title}</h2>
                      <TicketTypeBadge type={ticket.type} />
                      <TicketStatusBadge status={ticket.status} />
                    </div>
                    <p className="mt-1 text-sm text-slate-600">
                      Erstellt am <time dateTime={ticket.createdAt}>{formatDate(ticket.createdAt)}</time>
                      {ticket.server && <> · Server {ticket.server.name}</>}
                    </p>
                    <p className="mt-2 line-clamp-2 whitespace-pre-wrap break-words text-sm text-slate-800">{ticket.description}</p>
                  </div>
                  <Link to={paths.ticket(ticket.id)} className="self-start font-medium text-brand-700 underline" aria-label={`Details zu Ticket „${ticket.title}“`}>Details</Link>
                </Card>
              </li>
            ))}
          </ul>
        </ListState>
      </div>
      <NewTicketDialog open={creating} onOpenChange={setCreating} onCreated={(id) => void navigate(paths.ticket(id))} />
    </div>
  );
}

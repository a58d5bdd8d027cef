import { Link, useParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { ArrowLeft, Mail, Phone } from 'lucide-react';
import {
  CreateCustomerNoteInput, customerDetailMessages as m, customerKindLabels, formatEuro, orderStatusLabels, serverStatusLabels, ticketStatusLabels,
  type CustomerDetail, type OrderStatus, type TicketStatus,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/forms.ts';
import { paths } from '../../../config/paths.ts';
import { useAddCustomerNote, useCustomer } from '../api/customers.ts';
import { CustomerSettings } from './customer-settings.tsx';
import { CustomerCommunications } from './customer-communications.tsx';

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' }) : 'noch nie');
const dateTime = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const countries: Record<string, string> = { DE: 'Deutschland', AT: 'Österreich', CH: 'Schweiz' };

/**
 * Customer detail (spec layout; issue 11), first slice from real data: header, customer info, servers
 * with live status, open tickets, the last three orders, revenue and open amount, staff notes.
 */
export default function CustomerDetailPage() {
  const { customerId = '' } = useParams();
  const customer = useCustomer(customerId);
  if (customer.isPending) return <Spinner label="Lade Kunde …" />;
  if (customer.isError) {
    const missing = customer.error instanceof ApiRequestError && (customer.error.status === 404 || customer.error.status === 400);
    return <Alert tone="error">{missing ? m.notFound : `Der Kunde konnte nicht geladen werden. ${customer.error.message}`}</Alert>;
  }
  const c = customer.data;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <PageMeta title={c.name} />
      <Link to={paths.dashboard.customerOverview} className="inline-flex items-center gap-1 self-start text-sm font-medium text-brand-700 underline"><ArrowLeft className="size-4" aria-hidden="true" /> Kundenverwaltung</Link>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="break-words text-2xl font-bold text-slate-900">{c.name}</h1>
          <p className="mt-1 text-slate-700">{customerKindLabels[c.kind]} | Kundennummer {c.customerNumber}{c.disabled ? ' · gesperrt' : ''}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={`mailto:${c.email}`} className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"><Mail className="size-4" aria-hidden="true" /> E-Mail schreiben</a>
          {c.phone && <a href={`tel:${c.phone.replace(/[^+\d]/g, '')}`} className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"><Phone className="size-4" aria-hidden="true" /> Anrufen</a>}
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Money customer={c} />
          <Card className="p-4">
            <h2 className="font-semibold text-slate-900">Letzte Bestellungen</h2>
            {c.recentOrders.length === 0 ? <p className="mt-2 text-sm text-slate-600">Noch keine Bestellungen.</p> : (
              <ul className="mt-2 flex flex-col divide-y divide-slate-100 text-sm">
                {c.recentOrders.map((o) => (
                  <li key={o.id} className="flex flex-wrap justify-between gap-2 py-2">
                    <span>Bestellung {o.number} · {o.kind === 'upgrade' ? 'Upgrade' : 'Neuer Server'} · <time dateTime={o.createdAt}>{date(o.createdAt)}</time></span>
                    <span className="flex gap-3"><span className="text-slate-700">{orderStatusLabels[o.status as OrderStatus] ?? o.status}</span><span className="font-medium tabular-nums">{formatEuro(o.grossCents)}</span></span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card className="p-4">
            <h2 className="font-semibold text-slate-900">Server</h2>
            {c.servers.length === 0 ? <p className="mt-2 text-sm text-slate-600">Keine Server.</p> : (
              <ul className="mt-2 flex flex-col gap-1 text-sm">
                {c.servers.map((s) => (
                  <li key={s.id} className="flex flex-wrap justify-between gap-2">
                    <Link to={paths.dashboard.staffServer(s.id)} className="text-brand-700 underline">{s.name}</Link>
                    <span className="text-slate-700">{serverStatusLabels[s.status] ?? s.status}{s.ip ? ` · ${s.ip}` : ''}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <Card className="p-4">
            <h2 className="font-semibold text-slate-900">Offene Tickets</h2>
            {c.openTickets.length === 0 ? <p className="mt-2 text-sm text-slate-600">Keine offenen Tickets.</p> : (
              <ul className="mt-2 flex flex-col gap-1 text-sm">
                {c.openTickets.map((t) => (
                  <li key={t.id} className="flex flex-wrap justify-between gap-2">
                    <Link to={paths.supporterTicket(t.id)} className="min-w-0 break-words text-brand-700 underline">{t.title}</Link>
                    <span className="text-slate-700">{ticketStatusLabels[t.status as TicketStatus] ?? t.status} · <time dateTime={t.createdAt}>{date(t.createdAt)}</time></span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <CustomerCommunications customer={c} />
          <CustomerSettings customer={c} />
        </div>
        <aside aria-label="Kundeninformationen" className="flex min-w-0 flex-col gap-6">
          <Card className="p-4">
            <h2 className="font-semibold text-slate-900">Kundeninformationen</h2>
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-600">E-Mail</dt><dd className="break-all">{c.email}</dd>
              <dt className="text-slate-600">Telefon</dt><dd>{c.phone || '–'}</dd>
              <dt className="text-slate-600">Firma</dt><dd className="break-words">{c.companyName || '–'}</dd>
              {c.industry && <><dt className="text-slate-600">Branche</dt><dd className="break-words">{c.industry}</dd></>}
              <dt className="text-slate-600">Adresse</dt>
              <dd className="break-words">{c.address.street || c.address.city ? <>{c.address.street}<br />{c.address.zipCode} {c.address.city}<br />{countries[c.address.country] ?? c.address.country}</> : '–'}</dd>
              <dt className="text-slate-600">Kunde seit</dt><dd>{date(c.createdAt)}</dd>
              <dt className="text-slate-600">Letzte Anmeldung</dt><dd>{date(c.lastLoginAt)}</dd>
            </dl>
          </Card>
          <Notes customer={c} />
        </aside>
      </div>
    </div>
  );
}

function Money({ customer }: { customer: CustomerDetail }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Card className="p-4">
        <p className="text-sm text-slate-600">Umsatz (netto, bezahlt)</p>
        <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{formatEuro(customer.revenueNetCents)}</p>
      </Card>
      <Card className="p-4">
        <p className="text-sm text-slate-600">Offener Betrag</p>
        <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{formatEuro(customer.openCents)}</p>
      </Card>
    </div>
  );
}

function Notes({ customer }: { customer: CustomerDetail }) {
  const add = useAddCustomerNote(customer.id);
  const form = useSchemaForm<CreateCustomerNoteInput>({ resolver: zodResolver(CreateCustomerNoteInput), defaultValues: { body: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await add.mutateAsync(values);
      toast.success(m.noteSaved);
      form.reset({ body: '' });
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.noteFailed);
    }
  });
  return (
    <Card className="p-4">
      <h2 className="font-semibold text-slate-900">Notizen</h2>
      <p className="text-xs text-slate-600">Nur für Mitarbeiter sichtbar.</p>
      <form onSubmit={onSubmit} noValidate className="mt-3 flex flex-col gap-2">
        <TextareaField label="Neue Notiz" rows={3} error={form.formState.errors.body?.message} {...form.register('body')} />
        <Button type="submit" size="sm" className="self-end" loading={form.formState.isSubmitting}>Speichern</Button>
      </form>
      {customer.notes.length > 0 && (
        <ul className="mt-3 flex flex-col gap-3" aria-label="Notizen">
          {customer.notes.map((n) => (
            <li key={n.id} className="rounded-lg bg-amber-50 p-3 text-sm ring-1 ring-amber-200">
              <p className="whitespace-pre-wrap break-words text-slate-900">{n.body}</p>
              <p className="mt-1 text-xs text-slate-600">{n.author} · <time dateTime={n.createdAt}>{dateTime(n.createdAt)}</time></p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

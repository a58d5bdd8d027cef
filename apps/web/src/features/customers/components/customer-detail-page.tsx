import { Link, useParams, useSearchParams } from 'react-router';
import { Fragment, useState, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { ArrowLeft, FilePlus2, Mail, Phone, ShoppingCart } from 'lucide-react';
import {
  countryName, vatCheckServiceLabels, vatCheckStatusLabels, type CustomerVatCheck,
  CreateCustomerNoteInput, customerDetailMessages as m, privacyMessages as pm, customerKindLabels, formatEuro, orderStatusLabels, ticketStatusLabels,
  type CustomerDetail, type OrderStatus, type StaffSubscriptionItem, type TicketStatus,
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
import { CustomerInvoices } from './customer-invoices.tsx';
import { CustomerDocuments } from './customer-documents.tsx';
import { CustomerOrders } from './customer-orders.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { useSession } from '../../../lib/session.ts';

const TABS = { overview: 'Übersicht', orders: 'Bestellungen', communication: 'Kommunikation', documents: 'Dokumente', settings: 'Einstellungen' } as const;
type Tab = keyof typeof TABS;
const isTab = (value: string | null): value is Tab => value !== null && value in TABS;

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric' }) : 'noch nie');
const dateTime = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** What, status, term and what happens at its end, separated by dots; empty parts are left out. */
function SubscriptionFacts({ item }: { item: StaffSubscriptionItem }) {
  const parts: ReactNode[] = [
    item.detail || null,
    item.status,
    item.expiresAt ? <>bis <time dateTime={item.expiresAt}>{date(item.expiresAt)}</time></> : null,
    item.note ?? null,
  ].filter((part) => part !== null);
  return parts.map((part, i) => <Fragment key={i}>{i > 0 ? ' · ' : null}{part}</Fragment>);
}

/**
 * Customer detail (spec layout; issue 11), from real data: header, customer info, one section per
 * product (through the product port, in the registry's order), open tickets, the last three orders,
 * revenue and open amount, staff notes.
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
          <p className="mt-1 text-slate-700">{customerKindLabels[c.kind]} | Kundennummer {c.customerNumber}{c.deletedAt ? ' · gelöscht' : c.disabled ? ' · gesperrt' : ''}</p>
        </div>
        {!c.deletedAt && <div className="flex flex-wrap gap-2">
          <a href={`mailto:${c.email}`} className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"><Mail className="size-4" aria-hidden="true" /> E-Mail schreiben</a>
          {c.phone && <a href={`tel:${c.phone.replace(/[^+\d]/g, '')}`} className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100"><Phone className="size-4" aria-hidden="true" /> Anrufen</a>}
        </div>}
      </header>
      {c.deletedAt && (
        <Alert tone="warning">
          <strong>{pm.deletedCustomerName}:</strong> Dieses Kundenkonto wurde am <time dateTime={c.deletedAt}>{dateTime(c.deletedAt)}</time> gelöscht. Die persönlichen Daten wurden entfernt; Rechnungen, Bestellungen und Tickets bleiben ohne Personenbezug erhalten.
        </Alert>
      )}
      <CustomerTabs customer={c} />
    </div>
  );
}

/** The spec's five tabs; the open tab is in the address (?tab=…), so reload and back keep it. */
function CustomerTabs({ customer: c }: { customer: CustomerDetail }) {
  const [params, setParams] = useSearchParams();
  const { claims } = useSession();
  const tab: Tab = isTab(params.get('tab')) ? (params.get('tab') as Tab) : 'overview';
  // A quick action opens its dialog on the tab it belongs to.
  const [intent, setIntent] = useState<'mail' | 'invoice' | null>(null);
  const [invoiceRequests, setInvoiceRequests] = useState(0);
  const go = (next: Tab, action: 'mail' | 'invoice' | null = null) => {
    setIntent(action);
    if (action === 'invoice') setInvoiceRequests((n) => n + 1);
    setParams((p) => { const n = new URLSearchParams(p); if (next === 'overview') n.delete('tab'); else n.set('tab', next); return n; }, { replace: true });
  };
  return (
    <Tabs value={tab} onValueChange={(v) => go(v as Tab)}>
      <TabsList aria-label="Bereiche des Kunden">
        {Object.entries(TABS).map(([value, text]) => <TabsTrigger key={value} value={value}>{text}</TabsTrigger>)}
      </TabsList>
      <TabsContent value="overview">
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="flex min-w-0 flex-col gap-6">
            <Money customer={c} />
            {!c.deletedAt && (
            <Card className="p-4">
              <h2 className="font-semibold text-slate-900">Schnellaktionen</h2>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button size="sm" variant="outline" onClick={() => go('communication', 'mail')}><Mail className="size-4" aria-hidden="true" /> E-Mail senden</Button>
                {c.phone
                  ? <a href={`tel:${c.phone.replace(/[^+\d]/g, '')}`} className="inline-flex h-9 items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50"><Phone className="size-4" aria-hidden="true" /> Anrufen</a>
                  : <span className="inline-flex h-9 items-center text-sm text-slate-600">Keine Telefonnummer hinterlegt</span>}
                <Link to={paths.dashboard.customerOrder(c.id)} className="inline-flex h-9 items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50"><ShoppingCart className="size-4" aria-hidden="true" /> Neue Bestellung</Link>
                <Button size="sm" variant="outline" onClick={() => go('documents', 'invoice')}><FilePlus2 className="size-4" aria-hidden="true" /> Rechnung erstellen</Button>
              </div>
              <p className="mt-2 text-xs text-slate-600">Anrufe halten Sie unter „Kommunikation“ mit „Kommunikation erfassen“ fest.</p>
            </Card>
            )}
            <Card className="p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="font-semibold text-slate-900">Letzte Bestellungen</h2>
                {c.recentOrders.length > 0 && <Button size="sm" variant="ghost" onClick={() => go('orders')}>Alle anzeigen</Button>}
              </div>
              {c.recentOrders.length === 0 ? <p className="mt-2 text-sm text-slate-600">Noch keine Bestellungen.</p> : (
                <ul className="mt-2 flex flex-col divide-y divide-slate-100 text-sm">
                  {c.recentOrders.map((o) => (
                    <li key={o.id} className="flex flex-wrap justify-between gap-2 py-2">
                      <span>Bestellung {o.number} · {o.product}{o.kind === 'upgrade' ? ' (Verlängerung/Upgrade)' : ''} · <time dateTime={o.createdAt}>{date(o.createdAt)}</time></span>
                      <span className="flex gap-3"><span className="text-slate-700">{orderStatusLabels[o.status as OrderStatus] ?? o.status}</span><span className="font-medium tabular-nums">{formatEuro(o.grossCents)}</span></span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            {c.productSections.map((section) => (
              <Card key={section.kind} className="p-4">
                <h2 className="font-semibold text-slate-900">{section.title}</h2>
                {section.items.length === 0 ? <p className="mt-2 text-sm text-slate-600">{section.empty}</p> : (
                  <ul className="mt-2 flex flex-col gap-1 text-sm">
                    {section.items.map((item) => (
                      <li key={item.id} className="flex flex-wrap justify-between gap-2">
                        {item.href
                          ? <Link to={item.href} className="break-all text-brand-700 underline">{item.name}</Link>
                          : <span className="break-all font-medium text-slate-900">{item.name}</span>}
                        <span className="text-slate-700"><SubscriptionFacts item={item} /></span>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
            ))}
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
            <Card className="p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="font-semibold text-slate-900">Letzte Kommunikation</h2>
                {c.communications.length > 0 && <Button size="sm" variant="ghost" onClick={() => go('communication')}>Alle anzeigen</Button>}
              </div>
              {c.communications.length === 0 ? <p className="mt-2 text-sm text-slate-600">Noch keine Kommunikation.</p> : (
                <ul className="mt-2 flex flex-col divide-y divide-slate-100 text-sm">
                  {c.communications.slice(0, 2).map((k) => (
                    <li key={k.id} className="flex flex-wrap justify-between gap-2 py-2">
                      <span className="min-w-0 break-words">{k.subject}</span>
                      <time dateTime={k.createdAt} className="text-slate-600">{dateTime(k.createdAt)}</time>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
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
                <dd className="break-words">{c.address.street || c.address.city ? <>{c.address.street}<br />{c.address.zipCode} {c.address.city}<br />{countryName(c.address.country)}</> : '–'}</dd>
                <dt className="text-slate-600">Kunde seit</dt><dd>{date(c.createdAt)}</dd>
                <dt className="text-slate-600">Letzte Anmeldung</dt><dd>{date(c.lastLoginAt)}</dd>
              </dl>
            </Card>
            {!c.deletedAt && <VatCard customer={c} />}
            {!c.deletedAt && <Notes customer={c} />}
          </aside>
        </div>
      </TabsContent>
      <TabsContent value="orders"><CustomerOrders customerId={c.id} /></TabsContent>
      <TabsContent value="communication">{c.deletedAt ? <p className="text-sm text-slate-600">Das Kommunikationsprotokoll wurde mit dem Konto gelöscht.</p> : <CustomerCommunications customer={c} openMail={intent === 'mail'} />}</TabsContent>
      {/* Kept mounted: a half-written invoice must survive a look at another tab. */}
      <TabsContent value="documents" forceMount className="space-y-4 data-[state=inactive]:hidden">
        <CustomerInvoices customer={c} isOwner={claims?.role === 'owner'} createRequest={invoiceRequests} />
        <CustomerDocuments customer={c} />
      </TabsContent>
      <TabsContent value="settings"><CustomerSettings customer={c} /></TabsContent>
    </Tabs>
  );
}

const matchLabels = { match: 'stimmt überein', mismatch: 'weicht ab', unknown: 'nicht mitgeteilt' } as const;
const matchFields = [['name', 'Name'], ['street', 'Straße'], ['zip', 'PLZ'], ['city', 'Ort']] as const;

/** Issue 24: business status, the VAT ID and the proof of its latest check (§18e UStG). */
function VatCard({ customer: c }: { customer: CustomerDetail }) {
  const check: CustomerVatCheck | null = c.vatCheck;
  const matches = check?.matches ? matchFields.filter(([key]) => check.matches?.[key]) : [];
  return (
    <Card className="p-4" data-testid="customer-vat">
      <h2 className="font-semibold text-slate-900">Umsatzsteuer</h2>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Firmenkunde</dt><dd>{c.business ? 'ja' : 'nein'}</dd>
        <dt className="text-slate-600">USt-IdNr.</dt><dd className="break-all">{c.vatId ?? '–'}</dd>
        {check ? (
          <>
            <dt className="text-slate-600">Letzte Prüfung</dt>
            <dd className={check.status === 'valid' ? 'font-medium text-green-700' : 'font-medium text-amber-700'}>
              {vatCheckStatusLabels[check.status]}{check.vatId !== c.vatId ? ` (für ${check.vatId})` : ''}
            </dd>
            <dt className="text-slate-600">Prüfdienst</dt><dd>{vatCheckServiceLabels[check.service]}</dd>
            <dt className="text-slate-600">Geprüft am</dt><dd><time dateTime={check.checkedAt}>{dateTime(check.checkedAt)}</time></dd>
            <dt className="text-slate-600">Abfragenummer</dt><dd className="break-all">{check.consultationNumber ?? '–'}</dd>
            {matches.map(([key, label]) => <Fragment key={key}><dt className="text-slate-600">Abgleich {label}</dt><dd>{matchLabels[check.matches![key]!]}</dd></Fragment>)}
            {check.message && <><dt className="text-slate-600">Hinweis</dt><dd className="break-words">{check.message}</dd></>}
          </>
        ) : (
          <><dt className="text-slate-600">Letzte Prüfung</dt><dd>{c.vatId ? 'noch nicht geprüft' : '–'}</dd></>
        )}
      </dl>
    </Card>
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

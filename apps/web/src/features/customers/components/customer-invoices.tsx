import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Banknote, FilePlus2, Plus, Trash2, Undo2 } from 'lucide-react';
import {
  formatDayMonthYear, formatEuro, INVOICE_UNIT_LABEL, invoiceMessages as im, PAYMENT_METHOD_LABEL,
  type CustomerDetail, type InvoiceUnit, type StaffInvoiceCard,
} from '@hp/contract';
import { Alert, Card } from '../../../components/ui/card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { DataTable, type Column } from '../../../components/ui/table.tsx';
import { ListState } from '../../../components/ui/list-state.tsx';
import { InvoiceDownloads } from '../../../components/billing/invoice-downloads.tsx';
import { InvoiceKindBadge, InvoiceStateBadge, invoiceKindLabels } from '../../../components/billing/billing-badges.tsx';
import { CUSTOMER_INVOICE_PAGE_SIZE, parseGermanNumber, useCreateInvoice, useCustomerInvoices, useIssueCreditNote, useRecordPayment } from '../api/customer-invoices.ts';

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const errorText = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);
const label = (invoice: StaffInvoiceCard) => `${invoiceKindLabels[invoice.kind]} ${invoice.number}`;

/**
 * "Dokumente" of the customer page: invoices and credit notes with their payment state, downloads,
 * "Zahlung erfassen", "Gutschrift" (owner) and "Rechnung erstellen" for a manual invoice.
 */
export function CustomerInvoices({ customer, isOwner, createRequest = 0 }: { customer: CustomerDetail; isOwner: boolean; createRequest?: number }) {
  const [offset, setOffset] = useState(0);
  const invoices = useCustomerInvoices(customer.id, offset);
  const [creating, setCreating] = useState(false);
  // The quick action on the overview asks for the dialog; the draft inside survives tab changes.
  useEffect(() => { if (createRequest > 0) setCreating(true); }, [createRequest]);
  const [paying, setPaying] = useState<StaffInvoiceCard | null>(null);
  const [crediting, setCrediting] = useState<StaffInvoiceCard | null>(null);
  const items = invoices.data?.items ?? [];

  const columns: Column<StaffInvoiceCard>[] = [
    {
      header: 'Nummer', rowHeader: true,
      cell: (i) => (
        <>
          <span className="block font-mono">{i.number}</span>
          <span className="mt-1 flex flex-wrap justify-end gap-1 @3xl:justify-start"><InvoiceKindBadge kind={i.kind} /><InvoiceStateBadge state={i.state} /></span>
        </>
      ),
    },
    { header: 'Beschreibung', cell: (i) => <>{i.product}{i.creditNoteNumber && <span className="block text-xs text-slate-600">Gutschrift {i.creditNoteNumber}</span>}</> },
    {
      header: 'Datum', className: 'whitespace-nowrap',
      cell: (i) => <><span className="block">{formatDayMonthYear(i.date)}</span>{i.kind === 'invoice' && <span className="block text-xs text-slate-600">fällig am {formatDayMonthYear(i.dueDate)}</span>}</>,
    },
    { header: 'Betrag', className: 'whitespace-nowrap text-right tabular-nums', headerClassName: 'text-right', cell: (i) => formatEuro(i.amountCents) },
    {
      header: 'Offen', className: 'whitespace-nowrap text-right tabular-nums', headerClassName: 'text-right',
      cell: (i) => (i.kind === 'invoice' ? <span className={i.openCents > 0 ? 'font-semibold' : ''}>{formatEuro(i.openCents)}</span> : '–'),
    },
    {
      header: 'Aktionen', actions: true,
      cell: (i) => (
        <div className="flex flex-wrap gap-2">
          <InvoiceDownloads invoiceId={i.id} fileBase={`${i.kind === 'invoice' ? 'Rechnung' : 'Gutschrift'}-${i.number}`} label={label(i)} />
          {(i.state === 'open' || i.state === 'overdue') && (
            <Button size="sm" variant="outline" onClick={() => setPaying(i)}><Banknote className="size-4" aria-hidden="true" /> Zahlung erfassen<span className="sr-only"> zu {label(i)}</span></Button>
          )}
          {isOwner && i.kind === 'invoice' && i.state !== 'credited' && !i.creditNoteNumber && (
            <Button size="sm" variant="outline" onClick={() => setCrediting(i)}><Undo2 className="size-4" aria-hidden="true" /> Gutschrift<span className="sr-only"> zu {label(i)}</span></Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold text-slate-900">Rechnungen und Gutschriften</h2>
        <Button size="sm" onClick={() => setCreating(true)}><FilePlus2 className="size-4" aria-hidden="true" /> Rechnung erstellen</Button>
      </div>
      <div className="mt-3">
        <ListState query={invoices} isEmpty={!items.length} loadingLabel="Lade Rechnungen …" errorText="Die Rechnungen konnten nicht geladen werden." empty={<p className="text-sm text-slate-600">Noch keine Rechnungen.</p>}>
          <DataTable caption={`Rechnungen von ${customer.name}`} columns={columns} rows={items} rowKey={(i) => i.id} />
          <Pagination offset={offset} limit={CUSTOMER_INVOICE_PAGE_SIZE} total={invoices.data?.total ?? 0} onOffsetChange={setOffset} label="Seiten der Rechnungen" />
        </ListState>
      </div>
      <CreateInvoiceDialog customer={customer} open={creating} onOpenChange={setCreating} />
      {paying && <RecordPaymentDialog customerId={customer.id} invoice={paying} onClose={() => setPaying(null)} />}
      {crediting && <CreditNoteDialog customerId={customer.id} invoice={crediting} onClose={() => setCrediting(null)} />}
    </Card>
  );
}

interface LineDraft { key: number; description: string; quantity: string; unit: InvoiceUnit; price: string }
const emptyLine = (key: number): LineDraft => ({ key, description: '', quantity: '1', unit: 'piece', price: '' });
type LineErrors = Partial<Record<'description' | 'quantity' | 'price', string>>;

function checkLine(line: LineDraft): { errors: LineErrors; quantity: number | null; cents: number | null } {
  const errors: LineErrors = {};
  if (line.description.trim().length < 2) errors.description = im.lineDescription;
  const quantity = parseGermanNumber(line.quantity);
  if (quantity === null || quantity <= 0 || quantity > 100_000 || Math.abs(Math.round(quantity * 100) - quantity * 100) > 1e-6) errors.quantity = im.quantity;
  const euros = parseGermanNumber(line.price);
  const cents = euros === null ? null : Math.round(euros * 100);
  if (cents === null || cents < 1 || cents > 10_000_000 || Math.abs(cents - (euros ?? 0) * 100) > 1e-6) errors.price = im.unitPrice;
  return { errors, quantity, cents };
}

/**
 * "Rechnung erstellen": free lines, optional service period and note. The tax is the customer's own
 * decision (issue 24: country, business status, confirmed VAT ID), shown here and applied by the server;
 * staff do not pick a rate.
 */
function CreateInvoiceDialog({ customer, open, onOpenChange }: { customer: CustomerDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateInvoice(customer.id);
  const [lines, setLines] = useState<LineDraft[]>([emptyLine(1)]);
  const [nextKey, setNextKey] = useState(2);
  const [periodStart, setPeriodStart] = useState('');
  const [periodEnd, setPeriodEnd] = useState('');
  const [note, setNote] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const formId = useId();

  const checked = lines.map(checkLine);
  const netCents = checked.reduce((sum, c) => sum + (c.quantity !== null && c.cents !== null ? Math.round((Math.round(c.quantity * 100) * c.cents) / 100) : 0), 0);
  const tax = customer.tax;
  // The server's rounding: VAT on the net sum at the rate in tenths of a percent, half up.
  const vatCents = Math.floor((netCents * Math.round(tax.ratePercent * 10) + 500) / 1000);
  const rate = `${String(tax.ratePercent).replace('.', ',')} %`;
  const update = (key: number, patch: Partial<LineDraft>) => setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const reset = () => {
    setLines([emptyLine(1)]); setNextKey(2); setPeriodStart(''); setPeriodEnd(''); setNote(''); setShowErrors(false); setServerError(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setServerError(null);
    const invalid = checked.some((c) => Object.keys(c.errors).length > 0);
    if (invalid) {
      setShowErrors(true);
      return;
    }
    try {
      const invoice = await create.mutateAsync({
        lines: lines.map((l, i) => ({ description: l.description.trim(), quantity: checked[i]!.quantity!, unit: l.unit, unitNetCents: checked[i]!.cents! })),
        ...(periodStart ? { periodStart } : {}),
        ...(periodEnd ? { periodEnd } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      toast.success(`Rechnung ${invoice.number} über ${formatEuro(invoice.amountCents)} erstellt und an den Kunden gesendet.`);
      reset();
      onOpenChange(false);
    } catch (err) {
      // Everything entered stays in the form.
      setServerError(errorText(err, 'Die Rechnung konnte nicht erstellt werden.'));
    }
  };

  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Rechnung erstellen" description={`Für ${customer.name} (Kundennummer ${customer.customerNumber}). Zahlbar per Überweisung innerhalb von 15 Tagen; die Rechnung geht per E-Mail an den Kunden.`}>
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {serverError && <Alert tone="error">{serverError}</Alert>}
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-sm font-semibold text-slate-900">Positionen</legend>
          {lines.map((line, index) => {
            const errors = showErrors ? checked[index]!.errors : {};
            return (
              <div key={line.key} className="flex flex-col gap-2 rounded-lg p-3 ring-1 ring-slate-200" role="group" aria-label={`Position ${index + 1}`}>
                <Field label="Beschreibung" value={line.description} maxLength={300} error={errors.description} onChange={(e) => update(line.key, { description: e.target.value })} />
                <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                  <Field label="Menge" inputMode="decimal" value={line.quantity} error={errors.quantity} onChange={(e) => update(line.key, { quantity: e.target.value })} />
                  <SelectField label="Einheit" value={line.unit} onChange={(e) => update(line.key, { unit: e.target.value as InvoiceUnit })}>
                    {Object.entries(INVOICE_UNIT_LABEL).map(([value, text]) => <option key={value} value={value}>{text}</option>)}
                  </SelectField>
                  <div className="col-span-2 sm:col-span-1">
                    <Field label="Einzelpreis netto (€)" inputMode="decimal" placeholder="0,00" value={line.price} error={errors.price} onChange={(e) => update(line.key, { price: e.target.value })} />
                  </div>
                </div>
                {lines.length > 1 && (
                  <Button type="button" size="sm" variant="ghost" className="self-end" onClick={() => setLines((all) => all.filter((l) => l.key !== line.key))}>
                    <Trash2 className="size-4" aria-hidden="true" /> Position {index + 1} entfernen
                  </Button>
                )}
              </div>
            );
          })}
          {lines.length < 50 && (
            <Button type="button" size="sm" variant="outline" className="self-start" onClick={() => { setLines((all) => [...all, emptyLine(nextKey)]); setNextKey((k) => k + 1); }}>
              <Plus className="size-4" aria-hidden="true" /> Weitere Position
            </Button>
          )}
        </fieldset>
        <div className="rounded-lg p-3 text-sm ring-1 ring-slate-200">
          <p><span className="font-semibold text-slate-900">Umsatzsteuer:</span> {tax.category === 'S' ? `${rate} (${tax.placeOfSupply === 'DE' ? 'deutsche Umsatzsteuer' : tax.countryName})` : tax.priceLabel}</p>
          {tax.invoiceNote && <p className="mt-1 text-slate-600">Auf der Rechnung: {tax.invoiceNote}</p>}
          {tax.explanation && <p className="mt-1 text-slate-600">{tax.explanation}</p>}
          <p className="mt-1 text-slate-500">Ergibt sich aus Land, Kundenart und geprüfter USt-IdNr. des Kunden.</p>
        </div>
        <div className="grid gap-2 sm:grid-cols-2">
          <Field label="Leistung von (optional)" type="date" value={periodStart} onChange={(e) => setPeriodStart(e.target.value)} />
          <Field label="Leistung bis (optional)" type="date" value={periodEnd} onChange={(e) => setPeriodEnd(e.target.value)} />
        </div>
        <TextareaField label="Hinweis auf der Rechnung (optional)" rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm tabular-nums" aria-label="Summen">
          <dt>Nettobetrag</dt><dd className="text-right">{formatEuro(netCents)}</dd>
          <dt>{tax.category === 'S' ? `zzgl. ${rate} USt.` : `Umsatzsteuer (${tax.category === 'AE' ? 'Reverse Charge' : 'nicht im Inland steuerbar'})`}</dt><dd className="text-right">{formatEuro(vatCents)}</dd>
          <dt className="font-semibold">Gesamtbetrag</dt><dd className="text-right font-semibold">{formatEuro(netCents + vatCents)}</dd>
        </dl>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Abbrechen</Button>
          <Button type="submit" loading={create.isPending}>Rechnung ausstellen</Button>
        </div>
      </form>
    </Modal>
  );
}

function RecordPaymentDialog({ customerId, invoice, onClose }: { customerId: string; invoice: StaffInvoiceCard; onClose: () => void }) {
  const record = useRecordPayment(customerId);
  const [paidOn, setPaidOn] = useState(today());
  const [amount, setAmount] = useState((invoice.openCents / 100).toFixed(2).replace('.', ','));
  const [method, setMethod] = useState<'transfer' | 'sepa'>('transfer');
  const [error, setError] = useState<string | null>(null);
  const [amountError, setAmountError] = useState<string | undefined>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const euros = parseGermanNumber(amount);
    const cents = euros === null ? null : Math.round(euros * 100);
    if (cents === null || cents < 1) {
      setAmountError(im.paymentAmount);
      return;
    }
    setAmountError(undefined);
    try {
      const updated = await record.mutateAsync({ invoiceId: invoice.id, input: { paidOn, amountCents: cents, method } });
      toast.success(updated.state === 'paid' ? `Rechnung ${invoice.number} ist bezahlt.` : `Zahlung erfasst; offen sind noch ${formatEuro(updated.openCents)}.`);
      onClose();
    } catch (err) {
      setError(errorText(err, 'Die Zahlung konnte nicht erfasst werden.'));
    }
  };

  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Zahlung erfassen" description={`${label(invoice)} · offen ${formatEuro(invoice.openCents)} von ${formatEuro(invoice.amountCents)}`}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        {error && <Alert tone="error">{error}</Alert>}
        <Field label="Zahlungsdatum" type="date" value={paidOn} max={today()} onChange={(e) => setPaidOn(e.target.value)} />
        <Field label="Betrag (€)" inputMode="decimal" value={amount} error={amountError} onChange={(e) => setAmount(e.target.value)} />
        <SelectField label="Zahlungsart" value={method} onChange={(e) => setMethod(e.target.value as 'transfer' | 'sepa')}>
          <option value="transfer">{PAYMENT_METHOD_LABEL.transfer}</option>
          <option value="sepa">{PAYMENT_METHOD_LABEL.sepa}</option>
        </SelectField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>Abbrechen</Button>
          <Button type="submit" loading={record.isPending}>Zahlung speichern</Button>
        </div>
      </form>
    </Modal>
  );
}

function CreditNoteDialog({ customerId, invoice, onClose }: { customerId: string; invoice: StaffInvoiceCard; onClose: () => void }) {
  const issue = useIssueCreditNote(customerId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (reason.trim().length < 3) {
      setError('Bitte geben Sie einen Grund an.');
      return;
    }
    try {
      const note = await issue.mutateAsync({ invoiceId: invoice.id, reason: reason.trim() });
      toast.success(`Gutschrift ${note.number} ausgestellt und an den Kunden gesendet.`);
      onClose();
    } catch (err) {
      setError(errorText(err, 'Die Gutschrift konnte nicht ausgestellt werden.'));
    }
  };
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title="Gutschrift ausstellen" description={`Storniert ${label(invoice)} über ${formatEuro(invoice.amountCents)} vollständig. Die Rechnung selbst bleibt unverändert.`}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        {error && <Alert tone="error">{error}</Alert>}
        <TextareaField label="Grund" rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>Abbrechen</Button>
          <Button type="submit" variant="danger" loading={issue.isPending}>Gutschrift ausstellen</Button>
        </div>
      </form>
    </Modal>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { FileSignature } from 'lucide-react';
import { formatEuro, VDC_OFFER_STATUS_LABEL, VdcOfferInput, type VdcOffer } from '@hp/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { shownCents } from '../../../components/billing/tax-price.tsx';
import type { TicketPanelProps } from '../../../lib/product-views.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useTaxView } from '../../../lib/use-tax-view.ts';
import { useCreateVdcOffer, useTicketVdcOffers, useWithdrawVdcOffer } from '../api/vdc-offers.ts';
import { errorText, formatCores, formatDate, formatGb, monthsText } from './format.ts';

/** The form's fields: the contract's input, with the price in euro as staff think of it. */
interface Values {
  cpu: number;
  ram: number;
  storage: number;
  ipv4: number;
  months: number;
  price: number;
  validDays: number;
}

const toInput = (v: Values) => ({
  cpu: v.cpu, ram: v.ram, storage: v.storage, ipv4: v.ipv4, months: v.months, priceCents: Math.round(v.price * 100), validDays: v.validDays,
});

/** Checks with the API's own schema (VdcOfferInput); its price errors belong to the euro field. */
const offerResolver: Resolver<Values, unknown, VdcOfferInput> = async (values) => {
  const parsed = VdcOfferInput.safeParse(toInput(values));
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] === 'priceCents' ? 'price' : String(issue.path[0]);
    errors[key] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: errors as FieldErrors<Values> };
};

const defaults: Values = { cpu: 64, ram: 256, storage: 4000, ipv4: 4, months: 12, price: NaN, validDays: 14 };

/**
 * "Angebot erstellen" in a "VDC-Anfrage" ticket (staff): a pool that may exceed the sliders, its term, the
 * gross list price for the whole term and how long the offer holds. The server posts it into the ticket.
 */
export function VdcOfferForm({ ticketId }: { ticketId: string }) {
  const create = useCreateVdcOffer(ticketId);
  const { register, handleSubmit, reset, formState: { errors } } = useSchemaForm<Values, unknown, VdcOfferInput>({ resolver: offerResolver, defaultValues: defaults });
  const number = { valueAsNumber: true } as const;

  const submit = handleSubmit(async (input) => {
    try {
      await create.mutateAsync(input);
      toast.success('Das Angebot wurde im Ticket gesendet.');
      reset(defaults);
    } catch (err) {
      toast.error(errorText(err, 'Das Angebot konnte nicht erstellt werden.'));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Angebot erstellen" className="flex flex-col gap-3">
      <h3 className="font-semibold text-slate-900">Angebot erstellen</h3>
      <div className="grid grid-cols-2 gap-3">
        <Field label="vCPU-Kerne" type="number" inputMode="numeric" min={1} error={errors.cpu?.message} {...register('cpu', number)} />
        <Field label="RAM (GB)" type="number" inputMode="numeric" min={1} error={errors.ram?.message} {...register('ram', number)} />
        <Field label="Speicher (GB)" type="number" inputMode="numeric" min={10} error={errors.storage?.message} {...register('storage', number)} />
        <Field label="IPv4-Adressen" type="number" inputMode="numeric" min={0} error={errors.ipv4?.message} {...register('ipv4', number)} />
        <Field label="Laufzeit (Monate)" type="number" inputMode="numeric" min={1} error={errors.months?.message} {...register('months', number)} />
        <Field label="Gültigkeit (Tage)" type="number" inputMode="numeric" min={1} error={errors.validDays?.message} {...register('validDays', number)} />
      </div>
      <Field label="Preis in Euro (brutto, gesamte Laufzeit)" type="number" inputMode="decimal" step="0.01" min={1}
        hint="Listenpreis inkl. 19 % USt. wie im Shop; der Kunde sieht ihn mit seiner Steuer (z. B. netto bei Reverse Charge)."
        error={errors.price?.message} {...register('price', number)} />
      <Button type="submit" loading={create.isPending} className="self-start"><FileSignature className="size-4" aria-hidden="true" /> Angebot senden</Button>
    </form>
  );
}

const offerTone: Record<VdcOffer['status'], BadgeTone> = { open: 'info', accepted: 'success', withdrawn: 'neutral', expired: 'warning' };

/**
 * The offers of a "VDC-Anfrage" ticket on its page (the VDC's ticket panel): customers see each with
 * "Angebot annehmen" while it is open; staff withdraw open ones and make new ones while the ticket is open.
 */
export default function VdcTicketOffers({ ticketId, type, closed, viewer }: TicketPanelProps) {
  if (type !== 'vdc_request') return null;
  return <OfferPanel ticketId={ticketId} closed={closed} viewer={viewer} />;
}

function OfferPanel({ ticketId, closed, viewer }: Omit<TicketPanelProps, 'type'>) {
  const offers = useTicketVdcOffers(ticketId, viewer);
  const withdraw = useWithdrawVdcOffer();
  const tax = useTaxView().view;
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const staff = viewer === 'staff';
  // Customers see their own price (tax view); staff see the list price they set.
  const price = (cents: number) => (staff ? `${formatEuro(cents)} brutto (Listenpreis)` : tax ? `${formatEuro(shownCents(cents, tax))} ${tax.priceLabel}` : '…');

  const onWithdraw = async (id: string) => {
    setWithdrawing(id);
    try {
      await withdraw.mutateAsync(id);
      toast.success('Das Angebot wurde zurückgezogen.');
    } catch (err) {
      toast.error(errorText(err, 'Das Angebot konnte nicht zurückgezogen werden.'));
      throw err;
    } finally {
      setWithdrawing(null);
    }
  };

  return (
    <Card className="flex flex-col gap-4 p-4">
      <h2 className="font-semibold text-slate-900">Angebote zum Virtual Data Center</h2>
      {offers.isPending ? <Spinner label="Lade Angebote …" />
        : offers.isError ? <Alert tone="error">{errorText(offers.error, 'Die Angebote konnten nicht geladen werden.')}</Alert>
          : offers.data.length === 0 ? <p className="text-sm text-slate-600">{staff ? 'Noch kein Angebot.' : 'Wir melden uns hier mit einem Angebot.'}</p>
            : (
              <ul className="flex flex-col gap-3" aria-label="Angebote">
                {offers.data.map((o) => (
                  <li key={o.id} className="rounded-lg border border-slate-200 p-3 text-sm">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="font-medium text-slate-900">{formatCores(o.cpu)} · {formatGb(o.ram)} RAM · {formatGb(o.storage)} Speicher · {o.ipv4} IPv4</span>
                      <Badge tone={offerTone[o.status]}>{VDC_OFFER_STATUS_LABEL[o.status]}</Badge>
                    </div>
                    <p className="mt-1 text-slate-700">{monthsText(o.months)} · {price(o.priceCents)}</p>
                    <p className="text-slate-600">Gültig bis {formatDate(o.validUntil)}</p>
                    {o.status === 'open' && o.payPath && !staff && (
                      <Link to={o.payPath} className={buttonClass('primary', 'sm', 'mt-2')}>Angebot annehmen</Link>
                    )}
                    {o.status === 'open' && staff && (
                      <ConfirmDialog
                        trigger={<Button variant="outline" size="sm" className="mt-2" loading={withdrawing === o.id}>Zurückziehen</Button>}
                        title="Angebot zurückziehen?"
                        description="Der Kunde kann es danach nicht mehr bezahlen; eine bereits geöffnete Zahlungsseite wird beendet."
                        confirmLabel="Zurückziehen"
                        onConfirm={() => onWithdraw(o.id)}
                      />
                    )}
                  </li>
                ))}
              </ul>
            )}
      {staff && !closed && <VdcOfferForm ticketId={ticketId} />}
    </Card>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Lock, LockOpen, Mail, Trash2 } from 'lucide-react';
import {
  customerAuditLabels, isCountryCode, customerDetailMessages as m, customerFieldLabels, privacyMessages as pm, StaffEmailChangeInput, UpdateCustomerInput, type CustomerDetail,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { CountryOptions } from '../../../components/forms/country-options.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useCancelCustomerEmailChange, useDeleteCustomer, useRequestCustomerEmailChange, useSetCustomerLock, useUpdateCustomer } from '../api/customers.ts';
import { useSession } from '../../../lib/session.ts';
import { paths } from '../../../config/paths.ts';

const dateTime = (iso: string) => new Date(iso).toLocaleString('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const shown = (value: string) => (value === '' ? '(leer)' : value);

const valuesOf = (c: CustomerDetail): UpdateCustomerInput => ({
  phone: c.phone, street: c.address.street, zipCode: c.address.zipCode, city: c.address.city,
  country: isCountryCode(c.address.country) ? c.address.country : 'DE', companyName: c.companyName, industry: c.industry,
});

/**
 * "Einstellungen" of the customer detail: contact data, lock, the log of staff changes and, for the
 * owner, the danger zone. A deleted customer keeps only the log.
 */
export function CustomerSettings({ customer }: { customer: CustomerDetail }) {
  const isOwner = useSession().claims?.role === 'owner';
  return (
    <section aria-labelledby="settings-heading" className="flex flex-col gap-4">
      <h2 id="settings-heading" className="text-xl font-semibold text-slate-900">Einstellungen</h2>
      {!customer.deletedAt && <ContactForm key={customer.audit[0]?.at ?? 'initial'} customer={customer} />}
      {!customer.deletedAt && <EmailCard customer={customer} />}
      {!customer.deletedAt && <LockCard customer={customer} />}
      <AuditLog customer={customer} />
      {isOwner && !customer.deletedAt && <DangerZone customer={customer} />}
    </section>
  );
}

/** Owner only (the API refuses everyone else): anonymises the customer; invoices stay (decision 018). */
function DangerZone({ customer }: { customer: CustomerDetail }) {
  const navigate = useNavigate();
  const remove = useDeleteCustomer(customer.id);
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : pm.customerDeleteFailed, { duration: 10_000 });
      throw err;
    }
    toast.success(pm.customerDeleted);
    navigate(paths.dashboard.customerOverview);
  };
  return (
    <Card className="border-red-300 p-4 ring-1 ring-red-200">
      <h3 className="font-semibold text-red-800">Gefahrenzone</h3>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
        <p className="min-w-0 max-w-prose text-sm text-slate-700">
          Entfernt die persönlichen Daten, Notizen, Kommunikation und Dateien des Kunden und beendet alle Sitzungen. Rechnungen und Gutschriften bleiben gesetzlich aufbewahrt. Nicht möglich, solange Server aktiv oder Rechnungen offen sind.
        </p>
        <ConfirmDialog
          trigger={<Button variant="danger"><Trash2 className="size-4" aria-hidden="true" /> Kunden löschen</Button>}
          title="Kunden löschen"
          description={pm.deleteCustomerConfirm}
          confirmLabel="Kunden löschen"
          onConfirm={confirm}
        />
      </div>
    </Card>
  );
}

function ContactForm({ customer }: { customer: CustomerDetail }) {
  const update = useUpdateCustomer(customer.id);
  const form = useSchemaForm<UpdateCustomerInput>({ resolver: zodResolver(UpdateCustomerInput), defaultValues: valuesOf(customer) });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast.success(m.saved);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.saveFailed);
    }
  });
  return (
    <Card className="p-4">
      <h3 className="font-semibold text-slate-900">Kontaktdaten</h3>
      <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-3 sm:grid-cols-2">
        <Field label="Telefon" autoComplete="off" error={errors.phone?.message} {...form.register('phone')} />
        <Field label="Firma" autoComplete="off" hint="Firmenkunde wird der Kunde mit dem Schalter in seinem Profil (wegen der Umsatzsteuer)." error={errors.companyName?.message} {...form.register('companyName')} />
        <Field label="Straße und Hausnummer" autoComplete="off" error={errors.street?.message} {...form.register('street')} />
        <Field label="Branche" autoComplete="off" error={errors.industry?.message} {...form.register('industry')} />
        <Field label="PLZ" autoComplete="off" error={errors.zipCode?.message} {...form.register('zipCode')} />
        <Field label="Ort" autoComplete="off" error={errors.city?.message} {...form.register('city')} />
        <SelectField label="Land" error={errors.country?.message} {...form.register('country')}>
          <CountryOptions />
        </SelectField>
        <div className="flex items-end justify-end">
          <Button type="submit" loading={form.formState.isSubmitting}>Änderungen speichern</Button>
        </div>
      </form>
    </Card>
  );
}

/** A new address applies only once its mailbox confirms the link (docs/decisions/021). */
function EmailCard({ customer }: { customer: CustomerDetail }) {
  const change = useRequestCustomerEmailChange(customer.id);
  const cancel = useCancelCustomerEmailChange(customer.id);
  const withdraw = async () => {
    try {
      toast.success((await cancel.mutateAsync()).message);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.emailChangeFailed);
    }
  };
  const form = useSchemaForm<StaffEmailChangeInput>({ resolver: zodResolver(StaffEmailChangeInput), defaultValues: { newEmail: '' } });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await change.mutateAsync(values);
      toast.success(result.message);
      form.reset({ newEmail: '' });
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : m.emailChangeFailed;
      form.setError('newEmail', { message });
    }
  });
  const pending = customer.pendingEmail;
  return (
    <Card className="p-4">
      <h3 className="font-semibold text-slate-900">E-Mail-Adresse</h3>
      <p className="mt-1 break-words text-sm text-slate-700">Aktuell: <span className="font-medium">{customer.email}</span></p>
      {pending && (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2 rounded-md bg-amber-50 p-2">
          <p role="status" className="min-w-0 text-sm break-words text-amber-900">
            Wartet auf Bestätigung: <span className="font-medium">{pending.email}</span> (Link gültig bis {dateTime(pending.expiresAt)})
          </p>
          <Button size="sm" variant="outline" loading={cancel.isPending} onClick={() => void withdraw()}>Änderung verwerfen</Button>
        </div>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <Field label="Neue E-Mail-Adresse" type="email" autoComplete="off" hint="Der Kunde erhält einen Bestätigungslink an diese Adresse; bis dahin bleibt die aktuelle Adresse gültig." error={form.formState.errors.newEmail?.message} {...form.register('newEmail')} />
        </div>
        <Button type="submit" className="sm:mt-6" loading={form.formState.isSubmitting}><Mail className="size-4" aria-hidden="true" /> Bestätigungslink senden</Button>
      </form>
    </Card>
  );
}

function LockCard({ customer }: { customer: CustomerDetail }) {
  const lock = useSetCustomerLock(customer.id);
  const change = async (locked: boolean) => {
    try {
      await lock.mutateAsync(locked);
      toast.success(locked ? m.locked : m.unlocked);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.lockFailed);
      throw err;
    }
  };
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
      <div className="min-w-0">
        <h3 className="font-semibold text-slate-900">Konto {customer.disabled ? 'gesperrt' : 'aktiv'}</h3>
        <p className="text-sm text-slate-600">{customer.disabled ? 'Der Kunde kann sich nicht anmelden.' : 'Eine Sperre beendet alle Sitzungen des Kunden sofort.'}</p>
      </div>
      {customer.disabled
        ? <Button variant="outline" loading={lock.isPending} onClick={() => void change(false).catch(() => {})}><LockOpen className="size-4" aria-hidden="true" /> Konto freigeben</Button>
        : (
          <ConfirmDialog
            trigger={<Button variant="outline" className="text-red-700"><Lock className="size-4" aria-hidden="true" /> Konto sperren</Button>}
            title="Konto sperren?"
            description={`${customer.name} wird sofort abgemeldet und kann sich nicht mehr anmelden, bis das Konto freigegeben wird. Server laufen weiter.`}
            confirmLabel="Konto sperren"
            onConfirm={() => change(true)}
          />
        )}
    </Card>
  );
}

function AuditLog({ customer }: { customer: CustomerDetail }) {
  return (
    <Card className="p-4">
      <h3 className="font-semibold text-slate-900">Änderungsprotokoll</h3>
      {customer.audit.length === 0 ? <p className="mt-2 text-sm text-slate-600">Noch keine Änderungen durch Mitarbeiter.</p> : (
        <ol className="mt-2 flex flex-col gap-3 text-sm" aria-label="Änderungsprotokoll">
          {customer.audit.map((entry, i) => (
            <li key={`${entry.at}-${i}`} className="border-l-2 border-slate-200 pl-3">
              <p className="font-medium text-slate-900">{customerAuditLabels[entry.action] ?? entry.action}</p>
              <p className="text-xs text-slate-600">{entry.actor} · <time dateTime={entry.at}>{dateTime(entry.at)}</time></p>
              {entry.changes.length > 0 && (
                <ul className="mt-1 text-slate-700">
                  {entry.changes.map((c) => <li key={c.field} className="break-words">{customerFieldLabels[c.field] ?? c.field}: {shown(c.from)} → {shown(c.to)}</li>)}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

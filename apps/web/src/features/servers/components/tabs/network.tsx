import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import * as Switch from '@radix-ui/react-switch';
import { toast } from 'sonner';
import { Plus, ShieldCheck, ShieldOff, Trash2 } from 'lucide-react';
import { FIREWALL_PRESETS, FIREWALL_PROTOCOLS, FirewallRuleInput, PORT_HINT, PORT_PROTOCOLS, firewallMessages, type FirewallProtocol, type ServerDetail } from '@hp/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../../components/ui/card.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { SelectField } from '../../../../components/ui/select.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../../../components/ui/table.tsx';
import { ApiRequestError } from '../../../../lib/api-client.ts';
import { cn } from '../../../../lib/cn.ts';
import { useAddFirewallRule, useDeleteFirewallRule, useFirewall, useToggleFirewall } from '../../api/firewall.ts';
import { useSchemaForm } from '../../../../lib/forms.ts';

const errorText = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.message ? err.message : fallback);
const protocolLabel = (p: string) => (p === 'all' ? 'Alle' : p.toUpperCase());

export function NetworkTab({ detail }: { detail: ServerDetail }) {
  const n = detail.network;
  return (
    <div className="space-y-6">
      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">Netzwerk</h2>
        <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Info label="IPv4-Adresse" value={n.ipv4} mono />
          <Info label="Subnetzmaske" value={n.subnet ? (n.subnet.startsWith('/') ? n.subnet : `/${n.subnet}`) : null} mono />
          <Info label="Gateway" value={n.gateway} mono />
          <Info label="IPv6-Adresse" value={n.ipv6} mono />
          <Info label="Geschwindigkeit" value={n.speed} />
        </dl>
      </Card>
      <FirewallSection serverId={detail.id} />
    </div>
  );
}

function Info({ label, value, mono }: { label: string; value: string | null; mono?: boolean }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className={cn('font-medium text-slate-900', mono && value && 'font-mono')}>{value ?? '–'}</dd>
    </div>
  );
}

function FirewallSection({ serverId }: { serverId: string }) {
  const firewall = useFirewall(serverId);
  const toggle = useToggleFirewall(serverId);
  const remove = useDeleteFirewallRule(serverId);
  const [adding, setAdding] = useState(false);
  const [confirmingOff, setConfirmingOff] = useState(false);

  const setEnabled = (enabled: boolean) =>
    toggle.mutateAsync(enabled).then(
      (res) => { toast.success(res.message); },
      (err: unknown) => {
        toast.error(errorText(err, 'Es ist ein Fehler aufgetreten'), { duration: 7000 });
        throw err;
      },
    );
  // Switching on is harmless; switching off opens the server to all traffic, so it asks first.
  const onToggle = (enabled: boolean) => (enabled ? void setEnabled(true).catch(() => {}) : setConfirmingOff(true));

  const enabled = firewall.data?.enabled ?? false;
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Firewall</h2>
          <p className="mt-1 text-sm text-slate-600">Eingehender Verkehr ist nur auf den freigegebenen Ports erlaubt, solange die Firewall aktiv ist.</p>
        </div>
        {firewall.data && (
          <div className="flex items-center gap-3">
            <span id="firewall-switch-label" className="flex items-center gap-2 text-sm font-medium text-slate-800">
              {enabled ? <ShieldCheck className="size-4 text-green-700" aria-hidden="true" /> : <ShieldOff className="size-4 text-slate-500" aria-hidden="true" />}
              Firewall {enabled ? 'aktiv' : 'deaktiviert'}
            </span>
            <Switch.Root
              checked={enabled}
              disabled={toggle.isPending}
              onCheckedChange={onToggle}
              aria-labelledby="firewall-switch-label"
              className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition-colors disabled:opacity-60 data-[state=checked]:bg-green-600"
            >
              <Switch.Thumb className="block size-6 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
            </Switch.Root>
            <ConfirmDialog
              open={confirmingOff}
              onOpenChange={setConfirmingOff}
              title="Firewall deaktivieren?"
              description="Eingehender Verkehr wird dann nicht mehr gefiltert, alle Ports des Servers sind erreichbar. Ihre Regeln bleiben gespeichert und gelten wieder, sobald Sie die Firewall einschalten."
              confirmLabel="Deaktivieren"
              onConfirm={() => setEnabled(false)}
            />
          </div>
        )}
      </div>

      <div className="mt-5">
        {firewall.isPending ? <Spinner label="Firewall-Regeln werden geladen …" /> : firewall.isError ? (
          <Alert tone="error">{firewall.error.message} <button type="button" className="underline" onClick={() => firewall.refetch()}>Erneut versuchen</button></Alert>
        ) : (
          <>
            <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
              <h3 className="font-semibold text-slate-900">Regeln</h3>
              <Button
                size="sm"
                onClick={() => (enabled ? setAdding(true) : toast.error(firewallMessages.disabled, { duration: 7000 }))}
                aria-disabled={!enabled || undefined}
                className={cn(!enabled && 'opacity-60')}
              >
                <Plus className="size-4" aria-hidden="true" /> Regel hinzufügen
              </Button>
            </div>
            {!enabled ? (
              <Alert tone="warning">{firewallMessages.disabled}</Alert>
            ) : firewall.data.rules.length === 0 ? (
              <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">Noch keine Regeln. Fügen Sie eine Regel hinzu, um Ports freizugeben.</p>
            ) : (
              <DataTable
                caption="Firewall-Regeln"
                rows={firewall.data.rules}
                rowKey={(rule) => rule.id}
                columns={[
                  { header: '#', rowHeader: true, cell: (rule) => rule.pos + 1 },
                  { header: 'Protokoll', cell: (rule) => protocolLabel(rule.protocol) },
                  { header: 'Port', className: 'font-mono', cell: (rule) => (rule.port === 'any' ? 'any' : rule.port.replace(/,/g, ', ')) },
                  { header: 'Beschreibung', cell: (rule) => rule.description },
                  {
                    header: 'Aktionen',
                    actions: true,
                    className: 'text-right',
                    cell: (rule) => (
                      <ConfirmDialog
                        trigger={<Button size="sm" variant="ghost" aria-label={`Regel ${rule.pos + 1} (${rule.description}) löschen`}><Trash2 className="size-4 text-red-700" aria-hidden="true" /></Button>}
                        title="Firewall-Regel löschen?"
                        description={`Die Regel „${rule.description}“ (${protocolLabel(rule.protocol)}, Port ${rule.port}) wird entfernt.`}
                        onConfirm={() => {
                          // Optimistic: the dialog closes and the row disappears at once.
                          remove.mutate(rule, {
                            onSuccess: (res) => toast.success(res.message),
                            onError: (err) => toast.error(errorText(err, 'Es ist ein Fehler aufgetreten'), { duration: 7000 }),
                          });
                        }}
                      />
                    ),
                  },
                ]}
              />
            )}
          </>
        )}
      </div>
      <AddRuleDialog serverId={serverId} open={adding} onOpenChange={setAdding} />
    </Card>
  );
}

function AddRuleDialog({ serverId, open, onOpenChange }: { serverId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [mode, setMode] = useState<'simple' | 'advanced'>('simple');
  const add = useAddFirewallRule(serverId);
  const form = useSchemaForm({ resolver: zodResolver(FirewallRuleInput), defaultValues: { protocol: 'tcp' as FirewallProtocol, port: '', description: '' } });
  const { register, handleSubmit, watch, reset, formState: { errors } } = form;
  const [port, description, protocol] = watch(['port', 'description', 'protocol']);

  const close = (next: boolean) => {
    if (!next) {
      reset();
      setMode('simple');
      add.reset();
    }
    onOpenChange(next);
  };
  const send = (rule: { protocol: string; port: string; description: string }) =>
    add.mutate(rule, {
      onSuccess: (res) => {
        toast.success(res.message);
        close(false);
      },
      onError: (err) => toast.error(errorText(err, firewallMessages.createFailed), { duration: 7000 }),
    });

  return (
    <Modal open={open} onOpenChange={close} title="Regel hinzufügen" description="Neue Regeln stehen an erster Stelle und erlauben eingehenden Verkehr.">
      <div role="radiogroup" aria-label="Modus" className="mb-5 inline-flex rounded-lg bg-slate-100 p-1">
        {(['simple', 'advanced'] as const).map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            onClick={() => setMode(m)}
            className={cn('rounded-md px-3 py-1.5 text-sm font-medium', mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900')}
          >
            {m === 'simple' ? 'Einfach' : 'Erweitert'}
          </button>
        ))}
      </div>
      {mode === 'simple' ? (
        <div>
          <p className="mb-3 text-sm text-slate-700">Wählen Sie einen Dienst, um seinen Port freizugeben.</p>
          <ul className="grid gap-2 sm:grid-cols-2">
            {FIREWALL_PRESETS.map((p) => (
              <li key={p.key}>
                <button
                  type="button"
                  disabled={add.isPending}
                  onClick={() => send({ protocol: p.protocol, port: p.port, description: p.description })}
                  className="flex w-full items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-left text-sm hover:border-brand-600 hover:bg-brand-50 disabled:opacity-60"
                >
                  <span className="font-medium text-slate-900">{p.label}</span>
                  <span className="font-mono text-xs text-slate-600">{p.protocol.toUpperCase()} {p.port.replace(/,/g, ', ')}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <form className="space-y-4" noValidate onSubmit={handleSubmit((rule) => send(rule))}>
          <SelectField label="Protokoll" error={errors.protocol?.message} {...register('protocol')}>
            {FIREWALL_PROTOCOLS.map((p) => <option key={p} value={p}>{protocolLabel(p)}</option>)}
          </SelectField>
          <Field
            label="Port"
            placeholder={PORT_PROTOCOLS.includes(protocol) ? '80, 443' : 'any'}
            hint={PORT_PROTOCOLS.includes(protocol) ? PORT_HINT : 'Für dieses Protokoll gibt es keine Ports: any'}
            error={errors.port?.message}
            autoComplete="off"
            {...register('port')}
          />
          <Field label="Beschreibung" maxLength={100} error={errors.description?.message} autoComplete="off" {...register('description')} />
          <div className="flex justify-end gap-2 pt-2">
            <Button type="button" variant="outline" onClick={() => close(false)}>Abbrechen</Button>
            <Button type="submit" loading={add.isPending} disabled={!port?.trim() || !description?.trim()}>Regel hinzufügen</Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

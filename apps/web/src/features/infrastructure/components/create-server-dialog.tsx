import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { adminServerOsOptions, CreateServerInput, formatVmId, infrastructureMessages, type NodeRow } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { useCreateServer } from '../api/admin-servers.ts';
import { useCustomerOptions } from '../api/customer-options.ts';
import { firstPage } from '../api/keys.ts';
import { useNodes } from '../api/nodes.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';

const defaults: Partial<CreateServerInput> = { cpuCores: 1, ramGb: 1, storageGb: 10, os: 'Debian 12', owner: undefined, nodeId: undefined, reason: '' };
const freeText = (n: NodeRow) => `Frei: ${n.free.cpuCores} vCPU, ${n.free.ramGb} GB RAM, ${n.free.storageGb} GB Speicher`;

/**
 * Spec "Add server": vCPU, RAM, storage, OS, owner (searchable customer number) and cluster (searchable
 * physical server). The server checks capacity and takes the IP and VM id; its refusals come as toasts.
 */
export function CreateServerDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const createServer = useCreateServer();
  const form = useSchemaForm<CreateServerInput>({ resolver: zodResolver(CreateServerInput), defaultValues: defaults });
  const errors = form.formState.errors;

  const [ownerQuery, setOwnerQuery] = useState('');
  const [ownerLabel, setOwnerLabel] = useState<string>();
  const customers = useCustomerOptions(useDebouncedValue(ownerQuery), open);

  const [nodeQuery, setNodeQuery] = useState('');
  const nodeSearch = useDebouncedValue(nodeQuery);
  const nodes = useNodes(firstPage(nodeSearch, 20));
  const [chosenNode, setChosenNode] = useState<NodeRow>();

  const [cpuCores, ramGb, storageGb] = form.watch(['cpuCores', 'ramGb', 'storageGb']);
  const doesNotFit = chosenNode && (cpuCores > chosenNode.free.cpuCores || ramGb > chosenNode.free.ramGb || storageGb > chosenNode.free.storageGb);

  const close = (next: boolean) => {
    if (!next) {
      form.reset(defaults);
      setOwnerLabel(undefined);
      setChosenNode(undefined);
      setOwnerQuery('');
      setNodeQuery('');
    }
    onOpenChange(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const server = await createServer.mutateAsync(values);
      toast.success(`Server ${formatVmId(server.vmid)} wird eingerichtet (IP ${server.ip ?? '–'}).`);
      close(false);
    } catch (err) {
      toast.error(infrastructureMessages.serverMessage(err instanceof Error ? err.message : infrastructureMessages.saveFailed));
    }
  });

  return (
    <Modal open={open} onOpenChange={close} title="Server hinzufügen" description="ID, IP-Adresse und Status vergibt das System. Die Einrichtung startet sofort.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="vCPU" type="number" min={1} inputMode="numeric" error={errors.cpuCores?.message} {...form.register('cpuCores', { valueAsNumber: true })} />
          <Field label="RAM (GB)" type="number" min={1} inputMode="numeric" error={errors.ramGb?.message} {...form.register('ramGb', { valueAsNumber: true })} />
          <Field label="Speicher (GB)" type="number" min={10} inputMode="numeric" error={errors.storageGb?.message} {...form.register('storageGb', { valueAsNumber: true })} />
        </div>
        <SelectField label="Betriebssystem" error={errors.os?.message} {...form.register('os')}>
          {adminServerOsOptions.map((os) => <option key={os} value={os}>{os}</option>)}
        </SelectField>

        <Controller
          control={form.control}
          name="owner"
          render={({ field }) => (
            <Combobox
              label="Besitzer (Kundennummer)"
              placeholder="Kundennummer, Benutzername oder E-Mail …"
              value={field.value}
              selectedLabel={ownerLabel}
              query={ownerQuery}
              onQueryChange={setOwnerQuery}
              loading={customers.isFetching}
              emptyText={customers.isError ? 'Kunden konnten nicht geladen werden.' : 'Keine Kunden gefunden'}
              options={(customers.data?.items ?? []).map((c) => ({ value: c.customerNumber, label: `${c.customerNumber} · ${c.username}`, description: c.email }))}
              onChange={(value) => {
                const customer = customers.data?.items.find((c) => c.customerNumber === value);
                setOwnerLabel(customer ? `${customer.customerNumber} · ${customer.username}` : String(value));
                field.onChange(value);
              }}
              onBlur={field.onBlur}
              error={errors.owner?.message}
            />
          )}
        />

        <Controller
          control={form.control}
          name="nodeId"
          render={({ field }) => (
            <Combobox
              label="Cluster (physischer Server)"
              placeholder="ID, Name oder IP des Nodes …"
              value={field.value}
              selectedLabel={chosenNode ? `${chosenNode.id} · ${chosenNode.name}` : undefined}
              query={nodeQuery}
              onQueryChange={setNodeQuery}
              loading={nodes.isFetching}
              emptyText={nodes.isError ? infrastructureMessages.usageUnavailable : 'Keine physischen Server gefunden'}
              options={(nodes.data?.items ?? []).map((n) => ({ value: n.id, label: `${n.id} · ${n.name} (${n.host})`, description: freeText(n) }))}
              onChange={(value) => {
                setChosenNode(nodes.data?.items.find((n) => n.id === value));
                field.onChange(value);
              }}
              onBlur={field.onBlur}
              error={errors.nodeId?.message}
              hint={chosenNode ? `${freeText(chosenNode)}.` : undefined}
            />
          )}
        />

        <TextareaField
          label="Grund (intern)"
          rows={2}
          placeholder="z. B. Kulanz, Testsystem, Ersatz für Bestellung …"
          hint="Ohne Bestellung läuft der Server ohne Laufzeitende und wird nicht berechnet. Der Grund wird mit Ihrem Namen am Server gespeichert."
          error={errors.reason?.message}
          {...form.register('reason')}
        />

        {doesNotFit && chosenNode && (
          <Alert tone="warning">{infrastructureMessages.notEnoughResources(chosenNode.free)}</Alert>
        )}

        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" loading={createServer.isPending}>Server erstellen</Button>
        </div>
      </form>
    </Modal>
  );
}

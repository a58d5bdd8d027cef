import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateIpAddressInput, defaultSubnet, formatIpId, formatVmId, infrastructureMessages, ipVersions, type IpAddressRow, type IpVersionValue } from '@hp/contract';
import { Field } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import type { Column } from '../../../components/ui/table.tsx';
import { ListPage } from '../../../components/list-page/list-page.tsx';
import { useCreateIpAddress, useDeleteIpAddress, useIpAddresses } from '../api/ip-addresses.ts';
import { SubPageHeader, errorMessage } from '../../../components/staff/sub-page-header.tsx';
import { AddRecordDialog, DeleteRecordButton } from '../../../components/staff/record-dialogs.tsx';
import { IpUseBadge } from './status-badges.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';

/** The pool of IP addresses that new servers take their address from. */
export default function IpAddressListPage() {
  const [adding, setAdding] = useState(false);

  return (
    <div className="mx-auto max-w-6xl">
      <SubPageHeader title="IP-Adressverwaltung" description="Adressen, die neue Server erhalten. Belegte Adressen können nicht gelöscht werden." addLabel="IP-Adresse hinzufügen" onAdd={() => setAdding(true)} />

      <ListPage
        useList={useIpAddresses}
        search={{ label: 'IP-Adressen suchen', placeholder: 'Suche nach Adresse oder ID …' }}
        filters={[
          { param: 'version', label: 'Version', allLabel: 'Alle Versionen', options: ipVersions.map((v) => ({ value: v, label: v })) },
          { param: 'inUse', label: 'Belegung', allLabel: 'Alle Adressen', options: [{ value: 'false', label: 'Verfügbar' }, { value: 'true', label: 'In Verwendung' }] },
        ]}
        sortOptions={[
          { value: 'id', label: 'ID' },
          { value: 'address', label: 'Adresse aufsteigend' },
          { value: '-address', label: 'Adresse absteigend' },
          { value: 'version', label: 'Version' },
        ]}
        table={{ caption: 'IP-Adressen', columns: ipColumns, rowKey: (ip) => ip.id }}
        texts={{
          loading: 'Lade IP-Adressen …',
          error: 'Die IP-Adressen konnten nicht geladen werden.',
          empty: 'Es sind noch keine IP-Adressen eingetragen.',
          noMatch: (q) => `Keine IP-Adressen zu „${q}“ gefunden.`,
          pagination: 'Seiten der IP-Adressen',
        }}
      />

      <AddIpDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

const ipColumns: Column<IpAddressRow>[] = [
  { header: 'ID', rowHeader: true, className: 'font-mono', cell: (ip) => formatIpId(ip.id) },
  { header: 'Version', cell: (ip) => ip.version },
  { header: 'Adresse', className: 'font-mono', cell: (ip) => ip.address },
  { header: 'Subnetz', className: 'font-mono', cell: (ip) => ip.subnet },
  { header: 'Gateway', className: 'font-mono', cell: (ip) => ip.gateway },
  {
    header: 'Status',
    cell: (ip) => (
      <span className="inline-flex flex-wrap items-center justify-end gap-2">
        <IpUseBadge inUse={ip.inUse} />
        {ip.serverVmid !== null && <span className="text-xs text-slate-600">Server {formatVmId(ip.serverVmid)}</span>}
      </span>
    ),
  },
  { header: 'Aktionen', actions: true, className: 'text-right', cell: (ip) => <DeleteIpButton ip={ip} /> },
];

function DeleteIpButton({ ip }: { ip: IpAddressRow }) {
  const deleteIp = useDeleteIpAddress();
  return (
    <DeleteRecordButton
      label={`IP-Adresse ${ip.address} löschen`}
      title="IP-Adresse löschen?"
      description={`${ip.address} (${formatIpId(ip.id)}) wird aus dem Adresspool entfernt.`}
      remove={() => deleteIp.mutateAsync(ip.id)}
      removed={`IP-Adresse ${ip.address} wurde gelöscht.`}
    />
  );
}

const defaults: CreateIpAddressInput = { version: 'IPv4', address: '', subnet: defaultSubnet.IPv4, gateway: '' };

function AddIpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const createIp = useCreateIpAddress();
  const form = useSchemaForm<CreateIpAddressInput>({ resolver: zodResolver(CreateIpAddressInput), defaultValues: defaults });
  const errors = form.formState.errors;
  const version = form.watch('version');

  const versionField = form.register('version', {
    // Spec §5: choosing a version pre-fills the subnet.
    onChange: (e: { target: { value: string } }) => form.setValue('subnet', defaultSubnet[e.target.value as IpVersionValue] ?? '', { shouldValidate: form.formState.isSubmitted }),
  });

  return (
    <AddRecordDialog open={open} onOpenChange={onOpenChange} form={form} create={createIp} created={(ip) => `IP-Adresse ${ip.address} wurde eingetragen.`}
      failed={(err) => infrastructureMessages.serverMessage(errorMessage(err))}
      title="IP-Adresse hinzufügen" description="Die Adresse wird als verfügbar eingetragen und bei der nächsten Servererstellung vergeben.">
      <SelectField label="Version" error={errors.version?.message} {...versionField}>
        {ipVersions.map((v) => <option key={v} value={v}>{v}</option>)}
      </SelectField>
      <Field label="Adresse" autoComplete="off" spellCheck={false} placeholder={version === 'IPv6' ? '2001:db8::10' : '203.0.113.10'} error={errors.address?.message} {...form.register('address')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Subnetz"
          autoComplete="off"
          spellCheck={false}
          hint={version === 'IPv6' ? 'Präfix, z. B. /64' : 'Präfix (24) oder Maske (255.255.255.0)'}
          error={errors.subnet?.message}
          {...form.register('subnet')}
        />
        <Field label="Gateway" autoComplete="off" spellCheck={false} placeholder={version === 'IPv6' ? '2001:db8::1' : '203.0.113.1'} error={errors.gateway?.message} {...form.register('gateway')} />
      </div>
    </AddRecordDialog>
  );
}

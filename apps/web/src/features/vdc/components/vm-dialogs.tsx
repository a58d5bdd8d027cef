import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { DEFAULT_DISTRO, LINUX_DISTROS, VDC_VM_MIN, VdcVmCreateInput, VdcVmResizeInput, type VdcDetail, type VdcVm } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { cn } from '../../../lib/cn.ts';
import { useCreateVm, useResizeVm } from '../api/vdcs.ts';
import { errorText, formatCores, formatGb } from './format.ts';

/** What the pool has free now (the server checks again under the pool's lock). */
export function freeOf(detail: VdcDetail) {
  return {
    cpu: Math.max(0, detail.cpu.total - detail.cpu.used),
    ramGb: Math.max(0, detail.ramGb.total - detail.ramGb.used),
    diskGb: Math.max(0, detail.storageGb.total - detail.storageGb.used),
    ipv4: detail.ipv4List.filter((ip) => ip.serverId === null).length,
    vms: Math.max(0, detail.maxVms - detail.vmList.length),
  };
}

/** Whether the smallest VM still fits: otherwise "VM erstellen" says what is missing. */
export function missingForNewVm(detail: VdcDetail): string | null {
  const free = freeOf(detail);
  if (free.vms === 0) return `Ihr Pool hat die Höchstzahl von ${detail.maxVms} VMs erreicht.`;
  const missing = [
    free.cpu < VDC_VM_MIN.cpu && 'vCPU',
    free.ramGb < VDC_VM_MIN.ramGb && 'RAM',
    free.diskGb < VDC_VM_MIN.diskGb && 'Speicher',
  ].filter(Boolean);
  return missing.length ? `Für eine weitere VM fehlt freier ${missing.join(', ')}. Verkleinern oder löschen Sie eine VM oder erweitern Sie den Pool.` : null;
}

interface Resources { cpuCores: number; ramGb: number; diskGb: number }

/** The pool's limits on top of the contract's: each figure within `limit`, said in German by `says`. */
function checkFree(values: Resources, limit: Resources, says: (what: string) => string, add: (field: keyof Resources, message: string) => void) {
  if (values.cpuCores > limit.cpuCores) add('cpuCores', `vCPU: ${says(formatCores(limit.cpuCores))}`);
  if (values.ramGb > limit.ramGb) add('ramGb', `RAM: ${says(formatGb(limit.ramGb))}`);
  if (values.diskGb > limit.diskGb) add('diskGb', `Festplatte: ${says(formatGb(limit.diskGb))}`);
}
const freeNow = (what: string) => `höchstens ${what} (so viel ist im Pool frei).`;
const atMost = (what: string) => `höchstens ${what} (frei im Pool und was die VM schon hat).`;

interface CreateValues extends Resources {
  name: string;
  source: 'template' | 'iso';
  os: string;
  isoId: string;
  publicIpv4: boolean;
  privateNetwork: boolean;
}

const toCreateInput = (v: CreateValues) => ({
  name: v.name, cpuCores: v.cpuCores, ramGb: v.ramGb, diskGb: v.diskGb,
  ...(v.source === 'iso' ? { isoId: v.isoId || undefined } : { os: v.os }),
  publicIpv4: v.publicIpv4, privateNetwork: v.privateNetwork,
});

/** Maps the contract's issues (and the pool's) onto the form's fields. */
function issuesResolver<V extends object, O>(parse: (values: V) => { success: true; data: O } | { success: false; issues: { path: PropertyKey[]; message: string }[] }) {
  return (values: V) => {
    const result = parse(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.issues) {
      const key = String(issue.path[0] ?? 'root');
      errors[key] ??= { type: 'validate', message: issue.message };
    }
    return { values: {}, errors };
  };
}

const numberField = { valueAsNumber: true } as const;

/** "VM erstellen": name, resources within what is free, a Linux template or a ready ISO, and the addresses. */
export function CreateVmDialog({ detail, open, onOpenChange }: { detail: VdcDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="VM erstellen" description="Die VM nimmt ihre Ressourcen aus Ihrem Pool; sie kostet nichts extra.">
      {open && <CreateVmForm detail={detail} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function CreateVmForm({ detail, onDone }: { detail: VdcDetail; onDone: () => void }) {
  const create = useCreateVm(detail.id);
  const free = freeOf(detail);
  const readyIsos = detail.isos.filter((i) => i.status === 'ready');
  const networkActive = detail.network.status === 'active';
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, control, formState } = useSchemaForm<CreateValues, unknown, VdcVmCreateInput>({
    resolver: issuesResolver<CreateValues, VdcVmCreateInput>((values) => {
      const issues: { path: PropertyKey[]; message: string }[] = [];
      const parsed = VdcVmCreateInput.safeParse(toCreateInput(values));
      if (!parsed.success) issues.push(...parsed.error.issues.map((i) => ({ path: i.path, message: i.message })));
      if (values.source === 'iso' && !values.isoId) issues.push({ path: ['isoId'], message: 'Bitte wählen Sie ein ISO-Image.' });
      checkFree(values, { cpuCores: free.cpu, ramGb: free.ramGb, diskGb: free.diskGb }, freeNow, (field, message) => issues.push({ path: [field], message }));
      return parsed.success && issues.length === 0 ? { success: true, data: parsed.data } : { success: false, issues };
    }) as never,
    defaultValues: {
      name: '', source: 'template', os: DEFAULT_DISTRO, isoId: readyIsos[0]?.id ?? '',
      cpuCores: Math.min(free.cpu, 2) || VDC_VM_MIN.cpu, ramGb: Math.min(free.ramGb, 2) || VDC_VM_MIN.ramGb, diskGb: Math.min(free.diskGb, 20) || VDC_VM_MIN.diskGb,
      publicIpv4: free.ipv4 > 0, privateNetwork: networkActive,
    },
  });
  const source = useWatch({ control, name: 'source' });
  const errors = formState.errors;

  const submit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      const vm = await create.mutateAsync(input);
      toast.success(`Die VM ${vm.name} wird erstellt.`);
      onDone();
    } catch (err) {
      setFailure(errorText(err, 'Die VM konnte nicht erstellt werden. Bitte versuchen Sie es erneut.'));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Name" autoComplete="off" autoCapitalize="none" spellCheck={false} placeholder="z. B. web-1" maxLength={63}
        hint="Kleinbuchstaben, Ziffern und Bindestriche; wird der Hostname." error={errors.name?.message} {...register('name')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="vCPU (Kerne)" type="number" inputMode="numeric" min={VDC_VM_MIN.cpu} max={free.cpu} step={1} hint={`frei: ${free.cpu}`} error={errors.cpuCores?.message} {...register('cpuCores', numberField)} />
        <Field label="RAM (GB)" type="number" inputMode="numeric" min={VDC_VM_MIN.ramGb} max={free.ramGb} step={1} hint={`frei: ${formatGb(free.ramGb)}`} error={errors.ramGb?.message} {...register('ramGb', numberField)} />
        <Field label="Festplatte (GB)" type="number" inputMode="numeric" min={VDC_VM_MIN.diskGb} max={free.diskGb} step={1} hint={`frei: ${formatGb(free.diskGb)}`} error={errors.diskGb?.message} {...register('diskGb', numberField)} />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Betriebssystem</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <SourceOption value="template" title="Linux-Vorlage" text="Fertig installiert, wie beim Root Server" checked={source === 'template'} registration={register('source')} />
          <SourceOption value="iso" title="Eigenes ISO-Image" text={readyIsos.length ? 'Von Ihrem Image installieren' : 'Noch kein fertiges Image'} checked={source === 'iso'} disabled={readyIsos.length === 0} registration={register('source')} />
        </div>
      </fieldset>
      {source === 'template' ? (
        <SelectField label="Distribution" error={errors.os?.message} {...register('os')}>
          {LINUX_DISTROS.map((d) => <option key={d} value={d}>{d}</option>)}
        </SelectField>
      ) : (
        <SelectField label="ISO-Image" hint="Die VM startet von diesem Image; danach installieren Sie das System selbst (Konsole im Server-Panel)." error={errors.isoId?.message} {...register('isoId')}>
          {readyIsos.map((i) => <option key={i.id} value={i.id}>{i.name}</option>)}
        </SelectField>
      )}
      <div className="space-y-2">
        <label className={cn('flex items-start gap-3 text-sm', free.ipv4 === 0 ? 'text-slate-500' : 'text-slate-800')}>
          <input type="checkbox" className="mt-0.5 size-5 shrink-0 rounded accent-brand-600" disabled={free.ipv4 === 0} {...register('publicIpv4')} />
          <span>Öffentliche IPv4-Adresse zuweisen {free.ipv4 === 0 ? '(keine Adresse frei)' : `(${free.ipv4} frei)`}</span>
        </label>
        <label className={cn('flex items-start gap-3 text-sm', networkActive ? 'text-slate-800' : 'text-slate-500')}>
          <input type="checkbox" className="mt-0.5 size-5 shrink-0 rounded accent-brand-600" disabled={!networkActive} {...register('privateNetwork')} />
          <span>Mit dem privaten Netzwerk verbinden {networkActive ? `(${detail.network.cidr ?? ''})` : '(kein privates Netzwerk eingerichtet)'}</span>
        </label>
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone} disabled={create.isPending}>Abbrechen</Button>
        <Button type="submit" loading={create.isPending}>VM erstellen</Button>
      </div>
    </form>
  );
}

function SourceOption({ value, title, text, checked, disabled, registration }: { value: string; title: string; text: string; checked: boolean; disabled?: boolean; registration: ReturnType<ReturnType<typeof useSchemaForm<CreateValues>>['register']> }) {
  return (
    <label className={cn('flex items-start gap-3 rounded-lg border-2 p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
      checked ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white', disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer')}>
      <input type="radio" value={value} disabled={disabled} className="mt-1 size-4 shrink-0 accent-brand-600" {...registration} />
      <span><span className="block text-sm font-semibold text-slate-900">{title}</span><span className="block text-xs text-slate-600">{text}</span></span>
    </label>
  );
}

/** "Größe ändern" within the pool: what is free plus what the VM has; the disk only grows. */
export function ResizeVmDialog({ detail, vm, onClose }: { detail: VdcDetail; vm: VdcVm | null; onClose: () => void }) {
  return (
    <Modal open={vm !== null} onOpenChange={(open) => !open && onClose()} title={vm ? `Größe von ${vm.name} ändern` : ''}
      description="Die VM wird dafür neu gestartet. Die Festplatte kann nur wachsen.">
      {vm && <ResizeVmForm detail={detail} vm={vm} onDone={onClose} />}
    </Modal>
  );
}

function ResizeVmForm({ detail, vm, onDone }: { detail: VdcDetail; vm: VdcVm; onDone: () => void }) {
  const resize = useResizeVm(detail.id);
  const free = freeOf(detail);
  const max = { cpuCores: free.cpu + vm.cpuCores, ramGb: free.ramGb + vm.ramGb, diskGb: free.diskGb + vm.diskGb };
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useSchemaForm<Resources, unknown, VdcVmResizeInput>({
    resolver: issuesResolver<Resources, VdcVmResizeInput>((values) => {
      const issues: { path: PropertyKey[]; message: string }[] = [];
      const parsed = VdcVmResizeInput.safeParse(values);
      if (!parsed.success) issues.push(...parsed.error.issues.map((i) => ({ path: i.path, message: i.message })));
      if (values.diskGb < vm.diskGb) issues.push({ path: ['diskGb'], message: `Festplatte: Die Festplatte kann nur wachsen (jetzt ${formatGb(vm.diskGb)}).` });
      checkFree(values, max, atMost, (field, message) => issues.push({ path: [field], message }));
      return parsed.success && issues.length === 0 ? { success: true, data: parsed.data } : { success: false, issues };
    }) as never,
    defaultValues: { cpuCores: vm.cpuCores, ramGb: vm.ramGb, diskGb: vm.diskGb },
  });
  const errors = formState.errors;
  const submit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      await resize.mutateAsync({ vmId: vm.id, ...input });
      toast.success(`Die Größe von ${vm.name} wird geändert.`);
      onDone();
    } catch (err) {
      setFailure(errorText(err, 'Die Größe konnte nicht geändert werden. Bitte versuchen Sie es erneut.'));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="vCPU (Kerne)" type="number" inputMode="numeric" min={VDC_VM_MIN.cpu} max={max.cpuCores} hint={`höchstens ${max.cpuCores}`} error={errors.cpuCores?.message} {...register('cpuCores', numberField)} />
        <Field label="RAM (GB)" type="number" inputMode="numeric" min={VDC_VM_MIN.ramGb} max={max.ramGb} hint={`höchstens ${formatGb(max.ramGb)}`} error={errors.ramGb?.message} {...register('ramGb', numberField)} />
        <Field label="Festplatte (GB)" type="number" inputMode="numeric" min={vm.diskGb} max={max.diskGb} hint={`${formatGb(vm.diskGb)} bis ${formatGb(max.diskGb)}`} error={errors.diskGb?.message} {...register('diskGb', numberField)} />
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onDone} disabled={resize.isPending}>Abbrechen</Button>
        <Button type="submit" loading={resize.isPending}>Größe ändern</Button>
      </div>
    </form>
  );
}

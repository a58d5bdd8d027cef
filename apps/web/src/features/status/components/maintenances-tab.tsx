import { useRef, useState, type ChangeEvent } from 'react';
import { Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Trash2 } from 'lucide-react';
import {
  MaintenanceForm,
  MaintenanceStatus,
  defaultMaintenanceEnd,
  maintenanceStatusLabels,
  type StatusMaintenance,
  type StatusPageData,
  type StatusService,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select, SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useCreateMaintenance, useDeleteMaintenance, useUpdateMaintenance } from '../api/status.ts';
import { formatRange, localInputToIso, toLocalInputValue } from '../format.ts';
import { MaintenanceStatusBadge } from './status-badges.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { iconDeleteClass, showError, options, FormCard, ListHeading, EmptyList } from './management-ui.tsx';

function nextFullHour() {
  const d = new Date();
  d.setMinutes(0, 0, 0);
  d.setHours(d.getHours() + 1);
  return d;
}

function maintenanceDefaults() {
  const start = nextFullHour();
  return {
    title: '',
    description: '',
    startDate: toLocalInputValue(start),
    endDate: toLocalInputValue(defaultMaintenanceEnd(start)),
    affectedServices: [] as string[],
    status: 'scheduled' as const,
  };
}

export function MaintenancesTab({ data }: { data: StatusPageData }) {
  const open = data.maintenances.filter((m) => m.status !== 'completed');
  const completed = data.maintenances.filter((m) => m.status === 'completed').reverse();
  return (
    <>
      <NewMaintenanceForm services={data.services} />
      <ListHeading>Wartungen</ListHeading>
      {data.maintenances.length ? (
        <ul className="space-y-3">{[...open, ...completed].map((m) => <MaintenanceRow key={m.id} maintenance={m} />)}</ul>
      ) : (
        <EmptyList>Es sind keine Wartungen eingetragen.</EmptyList>
      )}
    </>
  );
}

function NewMaintenanceForm({ services }: { services: StatusService[] }) {
  const createMaintenance = useCreateMaintenance();
  const [defaults] = useState(maintenanceDefaults);
  const form = useSchemaForm({ resolver: zodResolver(MaintenanceForm), defaultValues: defaults });
  const errors = form.formState.errors;
  // Spec §4: the end follows the start (+ 1 hour) until someone sets it by hand.
  const endEdited = useRef(false);

  const startField = form.register('startDate', {
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const start = new Date(e.target.value);
      if (!endEdited.current && !Number.isNaN(start.getTime())) {
        form.setValue('endDate', toLocalInputValue(defaultMaintenanceEnd(start)), { shouldValidate: form.formState.isSubmitted });
      }
    },
  });
  const endField = form.register('endDate', { onChange: () => { endEdited.current = true; } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await createMaintenance.mutateAsync({ ...values, startDate: localInputToIso(values.startDate), endDate: localInputToIso(values.endDate) });
      toast.success(`Wartung „${values.title}“ wurde angelegt.`);
      endEdited.current = false;
      form.reset(maintenanceDefaults());
    } catch (err) {
      showError(err);
    }
  });

  return (
    <FormCard title="Neue Wartung">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Titel" maxLength={200} autoComplete="off" error={errors.title?.message} {...form.register('title')} />
        <TextareaField label="Beschreibung" maxLength={5000} error={errors.description?.message} {...form.register('description')} />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field type="datetime-local" label="Beginn" error={errors.startDate?.message} {...startField} />
          <Field type="datetime-local" label="Ende" hint="Standard: Beginn + 1 Stunde" error={errors.endDate?.message} {...endField} />
          <SelectField label="Status" error={errors.status?.message} {...form.register('status')}>
            {options(MaintenanceStatus.options, maintenanceStatusLabels)}
          </SelectField>
        </div>
        <Controller
          control={form.control}
          name="affectedServices"
          render={({ field, fieldState }) => (
            <fieldset>
              <legend className="text-sm font-medium text-slate-800">Betroffene Dienste</legend>
              {services.length ? (
                <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
                  {services.map((service) => {
                    const checked = field.value.includes(service.name);
                    return (
                      <label key={service.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 text-slate-800 hover:bg-slate-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                        <input
                          type="checkbox"
                          className="size-4 accent-brand-600"
                          checked={checked}
                          onBlur={field.onBlur}
                          onChange={() => field.onChange(checked ? field.value.filter((n) => n !== service.name) : [...field.value, service.name])}
                        />
                        {service.name}
                      </label>
                    );
                  })}
                </div>
              ) : (
                <p className="mt-2 text-sm text-slate-600">Es sind noch keine Dienste eingetragen.</p>
              )}
              {fieldState.error && <p role="alert" className="mt-1.5 text-sm font-medium text-red-700">{fieldState.error.message}</p>}
            </fieldset>
          )}
        />
        <Button type="submit" loading={createMaintenance.isPending}>Wartung anlegen</Button>
      </form>
    </FormCard>
  );
}

function MaintenanceRow({ maintenance }: { maintenance: StatusMaintenance }) {
  const updateMaintenance = useUpdateMaintenance();
  const deleteMaintenance = useDeleteMaintenance();

  const changeStatus = (status: MaintenanceStatus) =>
    updateMaintenance.mutate({ id: maintenance.id, status }, {
      onSuccess: () => toast.success(`Status von „${maintenance.title}“ gespeichert: ${maintenanceStatusLabels[status]}.`),
      onError: showError,
    });

  return (
    <li>
      <Card className="flex flex-col gap-4 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold text-slate-900">{maintenance.title}</h3>
            <MaintenanceStatusBadge status={maintenance.status} />
          </div>
          <p className="mt-1 text-sm text-slate-600">{formatRange(maintenance.startDate, maintenance.endDate)}</p>
          <p className="mt-2 line-clamp-2 text-sm text-slate-700">{maintenance.description}</p>
          {maintenance.affectedServices.length > 0 && (
            <p className="mt-1 text-sm text-slate-600">Betroffen: {maintenance.affectedServices.join(', ')}</p>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <Select
            aria-label={`Status von ${maintenance.title}`}
            className="w-full sm:w-48"
            value={updateMaintenance.isPending ? updateMaintenance.variables.status : maintenance.status}
            disabled={updateMaintenance.isPending}
            onChange={(e) => changeStatus(e.target.value as MaintenanceStatus)}
          >
            {options(MaintenanceStatus.options, maintenanceStatusLabels)}
          </Select>
          <ConfirmDialog
            title="Wartung löschen?"
            description={`„${maintenance.title}“ wird dauerhaft gelöscht.`}
            onConfirm={() =>
              deleteMaintenance.mutateAsync(maintenance.id).then(
                () => toast.success('Wartung wurde gelöscht.'),
                (err) => { showError(err); throw err; },
              )}
            trigger={
              <button type="button" className={iconDeleteClass} aria-label={`Wartung „${maintenance.title}“ löschen`}>
                <Trash2 className="size-5" aria-hidden="true" />
              </button>
            }
          />
        </div>
      </Card>
    </li>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Plus, Trash2 } from 'lucide-react';
import { CreateServiceInput, ServiceStatus, serviceStatusLabels, type StatusService } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useCreateService, useDeleteService, useUpdateService } from '../api/status.ts';
import { ServiceStatusBadge } from './status-badges.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { iconDeleteClass, showError, options, FormCard, ListHeading, EmptyList } from './management-ui.tsx';

export function ServicesTab({ services }: { services: StatusService[] }) {
  const createService = useCreateService();
  const form = useSchemaForm({ resolver: zodResolver(CreateServiceInput), defaultValues: { name: '' } });

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await createService.mutateAsync(values);
      toast.success(`Dienst „${values.name}“ wurde angelegt.`);
      form.reset();
    } catch (err) {
      showError(err);
    }
  });

  return (
    <>
      <FormCard title="Dienst hinzufügen">
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field label="Name des Dienstes" className="flex-1" maxLength={100} autoComplete="off" error={form.formState.errors.name?.message} {...form.register('name')} />
          <Button type="submit" className="sm:mt-7" loading={createService.isPending}>
            <Plus className="size-4" aria-hidden="true" /> Hinzufügen
          </Button>
        </form>
      </FormCard>

      <ListHeading>Dienste</ListHeading>
      {services.length ? (
        <Card>
          <ul className="divide-y divide-slate-100">
            {services.map((service) => <ServiceRow key={service.id} service={service} />)}
          </ul>
        </Card>
      ) : (
        <EmptyList>Es sind noch keine Dienste eingetragen.</EmptyList>
      )}
    </>
  );
}

function ServiceRow({ service }: { service: StatusService }) {
  const updateService = useUpdateService();
  const deleteService = useDeleteService();

  const changeStatus = (status: ServiceStatus) =>
    updateService.mutate({ id: service.id, status }, {
      onSuccess: () => toast.success(`Status von „${service.name}“ gespeichert: ${serviceStatusLabels[status]}.`),
      onError: showError,
    });

  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">{service.name}</span>
        <ServiceStatusBadge status={service.status} />
      </div>
      <div className="flex items-center gap-2">
        <Select
          aria-label={`Status von ${service.name}`}
          className="w-full sm:w-56"
          value={service.status}
          onChange={(e) => changeStatus(e.target.value as ServiceStatus)}
        >
          {options(ServiceStatus.options, serviceStatusLabels)}
        </Select>
        <ConfirmDialog
          title="Dienst löschen?"
          description={`„${service.name}“ wird von der Statusseite entfernt. Wartungen, die den Dienst nennen, behalten den Namen.`}
          onConfirm={() =>
            deleteService.mutateAsync(service.id).then(
              () => toast.success(`Dienst „${service.name}“ wurde gelöscht.`),
              (err) => { showError(err); throw err; },
            )}
          trigger={
            <button type="button" className={iconDeleteClass} aria-label={`${service.name} löschen`}>
              <Trash2 className="size-5" aria-hidden="true" />
            </button>
          }
        />
      </div>
    </li>
  );
}

// ---------------------------------------------------------------- incidents

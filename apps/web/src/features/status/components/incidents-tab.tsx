import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Trash2 } from 'lucide-react';
import {
  CreateIncidentInput,
  IncidentSeverity,
  IncidentStatus,
  IncidentUpdateForm,
  incidentSeverityLabels,
  incidentStatusLabel,
  incidentStatusLabels,
  type StatusIncident,
} from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useAddIncidentUpdate, useCreateIncident, useDeleteIncident } from '../api/status.ts';
import { formatDateTime } from '../format.ts';
import { IncidentStatusBadge, SeverityBadge } from './status-badges.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { deleteClass, showError, options, FormCard, ListHeading, EmptyList } from './management-ui.tsx';

export function IncidentsTab({ incidents }: { incidents: StatusIncident[] }) {
  const active = incidents.filter((i) => i.status !== 'resolved');
  const resolved = incidents.filter((i) => i.status === 'resolved');
  return (
    <>
      <div className="grid gap-6 lg:grid-cols-2">
        <NewIncidentForm />
        <IncidentUpdateFormCard active={active} resolved={resolved} />
      </div>
      <ListHeading>Störungen</ListHeading>
      {incidents.length ? (
        <ul className="space-y-3">{incidents.map((incident) => <IncidentRow key={incident.id} incident={incident} />)}</ul>
      ) : (
        <EmptyList>Es sind keine Störungen eingetragen.</EmptyList>
      )}
    </>
  );
}

function NewIncidentForm() {
  const createIncident = useCreateIncident();
  const form = useSchemaForm({
    resolver: zodResolver(CreateIncidentInput),
    defaultValues: { title: '', severity: 'minor', status: 'investigating', message: '' },
  });
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await createIncident.mutateAsync(values);
      toast.success(`Störung „${values.title}“ wurde veröffentlicht.`);
      form.reset();
    } catch (err) {
      showError(err);
    }
  });

  return (
    <FormCard title="Neue Störung">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Field label="Titel" maxLength={200} autoComplete="off" error={errors.title?.message} {...form.register('title')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label="Schweregrad" error={errors.severity?.message} {...form.register('severity')}>
            {options(IncidentSeverity.options, incidentSeverityLabels)}
          </SelectField>
          <SelectField label="Status" error={errors.status?.message} {...form.register('status')}>
            {options(IncidentStatus.options, incidentStatusLabels)}
          </SelectField>
        </div>
        <TextareaField label="Erste Meldung (optional)" maxLength={5000} error={errors.message?.message} {...form.register('message')} />
        <Button type="submit" loading={createIncident.isPending}>Störung anlegen</Button>
      </form>
    </FormCard>
  );
}

function IncidentUpdateFormCard({ active, resolved }: { active: StatusIncident[]; resolved: StatusIncident[] }) {
  const addUpdate = useAddIncidentUpdate();
  const form = useSchemaForm({
    resolver: zodResolver(IncidentUpdateForm),
    defaultValues: { incidentId: '', status: 'identified', message: '' },
  });
  const errors = form.formState.errors;
  const label = (i: StatusIncident) => `${i.title} (${incidentStatusLabel(i.status)})`;

  const onSubmit = form.handleSubmit(async ({ incidentId, status, message }) => {
    try {
      await addUpdate.mutateAsync({ incidentId, status, message });
      toast.success(`Update veröffentlicht. Neuer Status: ${incidentStatusLabels[status]}.`);
      form.reset({ incidentId: String(incidentId), status, message: '' });
    } catch (err) {
      showError(err);
    }
  });

  return (
    <FormCard title="Update hinzufügen">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <SelectField label="Störung" error={errors.incidentId?.message} {...form.register('incidentId')}>
          <option value="">Bitte auswählen …</option>
          {active.length > 0 && <optgroup label="Aktive Störungen">{active.map((i) => <option key={i.id} value={i.id}>{label(i)}</option>)}</optgroup>}
          {resolved.length > 0 && <optgroup label="Behobene Störungen">{resolved.map((i) => <option key={i.id} value={i.id}>{label(i)}</option>)}</optgroup>}
        </SelectField>
        <SelectField label="Neuer Status" hint="Der Status der Störung wird auf diesen Wert gesetzt." error={errors.status?.message} {...form.register('status')}>
          {options(IncidentStatus.options, incidentStatusLabels)}
        </SelectField>
        <TextareaField label="Nachricht" maxLength={5000} error={errors.message?.message} {...form.register('message')} />
        <Button type="submit" loading={addUpdate.isPending}>Update veröffentlichen</Button>
      </form>
    </FormCard>
  );
}

function IncidentRow({ incident }: { incident: StatusIncident }) {
  const deleteIncident = useDeleteIncident();
  const latest = incident.updates[0];
  return (
    <li>
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5">
        <div className="min-w-0">
          <h3 className="font-semibold text-slate-900">{incident.title}</h3>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <IncidentStatusBadge status={incident.status} />
            <SeverityBadge severity={incident.severity} />
            <span className="text-sm text-slate-600">seit {formatDateTime(incident.date)}</span>
          </div>
          {latest && (
            <p className="mt-2 line-clamp-2 text-sm text-slate-700">
              <span className="font-medium">Letztes Update ({formatDateTime(latest.date)}):</span> {latest.message}
            </p>
          )}
          <p className="mt-1 text-sm text-slate-600">{incident.updates.length === 1 ? '1 Update' : `${incident.updates.length} Updates`}</p>
        </div>
        <ConfirmDialog
          title="Störung löschen?"
          description={`„${incident.title}“ wird mit allen Updates dauerhaft gelöscht.`}
          onConfirm={() =>
            deleteIncident.mutateAsync(incident.id).then(
              () => toast.success('Störung wurde gelöscht.'),
              (err) => { showError(err); throw err; },
            )}
          trigger={
            <button type="button" className={deleteClass} aria-label={`Störung „${incident.title}“ löschen`}>
              <Trash2 className="size-4" aria-hidden="true" /> Löschen
            </button>
          }
        />
      </Card>
    </li>
  );
}

// ---------------------------------------------------------------- maintenances

/** The next full hour, a sensible start for a new maintenance. */

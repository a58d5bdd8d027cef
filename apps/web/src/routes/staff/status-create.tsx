import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { ExternalLink, Lock, Plus, RefreshCw, Trash2 } from 'lucide-react';
import {
  CreateIncidentInput,
  CreateServiceInput,
  IncidentSeverity,
  IncidentStatus,
  IncidentUpdateForm,
  MaintenanceForm,
  MaintenanceStatus,
  ServiceStatus,
  defaultMaintenanceEnd,
  incidentSeverityLabels,
  incidentStatusLabel,
  incidentStatusLabels,
  maintenanceStatusLabels,
  serviceStatusLabels,
  type StatusIncident,
  type StatusMaintenance,
  type StatusPageData,
  type StatusService,
} from '@hp/contract';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../components/ui/card.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Select, SelectField } from '../../components/ui/select.tsx';
import { TextareaField } from '../../components/ui/textarea.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { isStaff, useSession } from '../../features/auth/session.ts';
import {
  useAddIncidentUpdate,
  useCreateIncident,
  useCreateMaintenance,
  useCreateService,
  useDeleteIncident,
  useDeleteMaintenance,
  useDeleteService,
  useStatusPage,
  useUpdateMaintenance,
  useUpdateService,
} from '../../features/status/api.ts';
import { formatDateTime, formatRange, localInputToIso, toLocalInputValue } from '../../features/status/format.ts';
import { IncidentStatusBadge, MaintenanceStatusBadge, OverallStatusBadge, ServiceStatusBadge, SeverityBadge } from '../../features/status/components/status-badges.tsx';
import { useSchemaForm } from '../../lib/forms.ts';

const TABS = [
  { value: 'dienste', label: 'Dienste' },
  { value: 'stoerungen', label: 'Störungen' },
  { value: 'wartungen', label: 'Wartungen' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

// Plain buttons: Button's own size and colour classes would clash with these (cn does not merge classes).
const iconDeleteClass = 'inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2';
const deleteClass = 'inline-flex h-9 shrink-0 items-center gap-2 self-start rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2';

const showError = (err: unknown) => toast.error(err instanceof Error ? err.message : 'Es ist ein Fehler aufgetreten.');
const options = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
  values.map((v) => <option key={v} value={v}>{labels[v]}</option>);

/** Status management for staff. The API enforces the role as well; this guard only spares a useless page. */
export default function StatusCreatePage() {
  const { token, claims } = useSession();
  if (!token) return <Navigate to="/login" replace />;
  if (!isStaff(claims?.role)) return <AccessDenied />;
  return <StatusManagement />;
}

function AccessDenied() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6">
      <PageMeta title="Zugriff verweigert" />
      <Lock className="mx-auto size-12 text-slate-500" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Zugriff verweigert</h1>
      <p className="mt-3 text-slate-700">Die Status-Verwaltung ist nur für Mitarbeiter und Inhaber zugänglich.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/status" variant="primary">Zur Statusseite</ButtonLink>
        <ButtonLink to="/dashboard" variant="outline">Zum Dashboard</ButtonLink>
      </div>
    </div>
  );
}

function StatusManagement() {
  const query = useStatusPage();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = TABS.some((t) => t.value === requested) ? (requested as TabValue) : 'dienste';

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-12">
      <PageMeta title="Status-Verwaltung" />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Status-Verwaltung</h1>
          <p className="mt-2 text-slate-700">Dienste, Störungen und Wartungen der öffentlichen Statusseite pflegen.</p>
        </div>
        <Link to="/status" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline">
          Öffentliche Statusseite <ExternalLink className="size-4" aria-hidden="true" />
        </Link>
      </div>

      {query.data ? (
        <>
          <p className="mt-6 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            Gesamtstatus: <OverallStatusBadge status={query.data.overallStatus} />
          </p>
          <Tabs value={tab} onValueChange={(v) => setParams({ tab: v }, { replace: true })} className="mt-6">
            <TabsList aria-label="Bereiche der Status-Verwaltung">
              {TABS.map((t) => <TabsTrigger key={t.value} value={t.value}>{t.label}</TabsTrigger>)}
            </TabsList>
            <TabsContent value="dienste"><ServicesTab services={query.data.services} /></TabsContent>
            <TabsContent value="stoerungen"><IncidentsTab incidents={query.data.incidents} /></TabsContent>
            <TabsContent value="wartungen"><MaintenancesTab data={query.data} /></TabsContent>
          </Tabs>
        </>
      ) : query.isError ? (
        <Alert tone="error" className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <span>Die Statusdaten konnten nicht geladen werden. {query.error.message}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()} loading={query.isFetching}>
            <RefreshCw className="size-4" aria-hidden="true" /> Erneut versuchen
          </Button>
        </Alert>
      ) : (
        <div className="mt-10"><Spinner label="Statusdaten werden geladen …" /></div>
      )}
    </div>
  );
}

function FormCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}

function ListHeading({ children }: { children: ReactNode }) {
  return <h2 className="mb-3 mt-10 text-lg font-semibold text-slate-900">{children}</h2>;
}

function EmptyList({ children }: { children: ReactNode }) {
  return <Card className="px-5 py-6 text-slate-700">{children}</Card>;
}

// ---------------------------------------------------------------- services

function ServicesTab({ services }: { services: StatusService[] }) {
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

function IncidentsTab({ incidents }: { incidents: StatusIncident[] }) {
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

function MaintenancesTab({ data }: { data: StatusPageData }) {
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

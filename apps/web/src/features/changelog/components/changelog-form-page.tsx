import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useFieldArray } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { Plus, Trash2 } from 'lucide-react';
import { ChangelogInput, changelogMessages as m, changelogTypeLabel, changelogTypes, type ChangelogDetail } from '@hp/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Alert, Card, Spinner } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { SelectField } from '../../../components/ui/select.tsx';
import { TextareaField } from '../../../components/ui/textarea.tsx';
import { PageMeta } from '../../../components/page-meta.tsx';
import { useSchemaForm } from '../../../lib/forms.ts';
import { isStaff, useSession } from '../../../lib/session.ts';
import { paths } from '../../../config/paths.ts';
import { useChangelogEntry, useCreateChangelogEntry, useDeleteChangelogEntry, useUpdateChangelogEntry } from '../api/changelog.ts';

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
const emptyChange = { title: '', description: '', type: 'feature' as const };
const blank = (): ChangelogInput => ({ title: '', description: '', version: '', releaseDate: today(), type: 'feature', highlight: false, changes: [emptyChange] });
const fromEntry = (e: ChangelogDetail): ChangelogInput => ({
  title: e.title, description: e.description, version: e.version ?? '', releaseDate: e.releaseDate,
  type: (changelogTypes as readonly string[]).includes(e.type) ? (e.type as ChangelogInput['type']) : 'feature', highlight: e.highlight,
  changes: e.changes.map((c) => ({ title: c.title, description: c.description, type: (changelogTypes as readonly string[]).includes(c.type) ? (c.type as 'feature') : 'feature' })),
});

/**
 * Spec "Changelog create" ('Changelog-Verwaltung'), also for editing (`?edit={id}`). Without a token:
 * /login; customers: /notfound (the API refuses them too).
 */
export default function ChangelogFormPage() {
  const { token, claims } = useSession();
  const [params] = useSearchParams();
  const editId = params.get('edit');
  const existing = useChangelogEntry(editId ?? '', Boolean(editId) && isStaff(claims?.role));
  if (!token) return <Navigate to={paths.login} replace />;
  if (!isStaff(claims?.role)) return <Navigate to={paths.notFound} replace />;
  if (editId && existing.isPending) return <Spinner label="Lade Eintrag …" />;
  if (editId && existing.isError) return <div className="mx-auto max-w-3xl px-4 py-8"><Alert tone="error">{m.notFoundText}</Alert></div>;
  return <ChangelogForm key={editId ?? 'new'} entry={editId ? existing.data : undefined} />;
}

function ChangelogForm({ entry }: { entry?: ChangelogDetail }) {
  const navigate = useNavigate();
  const create = useCreateChangelogEntry();
  const update = useUpdateChangelogEntry(entry?.id ?? '');
  const remove = useDeleteChangelogEntry();
  const form = useSchemaForm<ChangelogInput>({ resolver: zodResolver(ChangelogInput), defaultValues: entry ? fromEntry(entry) : blank() });
  const changes = useFieldArray({ control: form.control, name: 'changes' });
  const errors = form.formState.errors;
  useEffect(() => form.setFocus('title'), [form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const saved = entry ? await update.mutateAsync(values) : await create.mutateAsync(values);
      toast.success(entry ? m.saved : m.created);
      void navigate(paths.changelogEntry(saved.id));
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.saveFailed);
    }
  });
  const onDelete = async () => {
    try {
      await remove.mutateAsync(entry!.id);
      toast.success(m.deleted);
      void navigate(paths.changelog);
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : m.deleteFailed);
      throw err;
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6">
      <PageMeta title="Changelog-Verwaltung" />
      <div>
        <h1 className="text-3xl font-bold text-slate-900">Changelog-Verwaltung</h1>
        <p className="mt-1 text-slate-700">{entry ? `Eintrag „${entry.title}“ bearbeiten.` : 'Neuen Eintrag veröffentlichen.'}</p>
      </div>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
        <Card className="flex flex-col gap-4 p-5">
          <Field label="Titel" autoComplete="off" maxLength={150} error={errors.title?.message} {...form.register('title')} />
          <TextareaField label="Beschreibung" rows={4} error={errors.description?.message} {...form.register('description')} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Version (optional)" placeholder="v2.6.0" hint="Leer lassen für Ankündigungen" autoComplete="off" maxLength={30} error={errors.version?.message} {...form.register('version')} />
            <Field label="Veröffentlichungsdatum" type="date" error={errors.releaseDate?.message} {...form.register('releaseDate')} />
            <SelectField label="Typ" error={errors.type?.message} {...form.register('type')}>
              {changelogTypes.map((t) => <option key={t} value={t}>{changelogTypeLabel(t)}</option>)}
            </SelectField>
            <label className="flex items-center gap-2 self-end pb-3 text-sm font-medium text-slate-800">
              <input type="checkbox" className="size-4 rounded border-slate-300" {...form.register('highlight')} /> Als Highlight hervorheben
            </label>
          </div>
        </Card>
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-xl font-semibold text-slate-900">Änderungen</legend>
          {errors.changes?.message && <p role="alert" className="text-sm font-medium text-red-700">{errors.changes.message}</p>}
          {changes.fields.map((field, index) => (
            <Card key={field.id} className="flex flex-col gap-3 p-4" role="group" aria-label={`Änderung ${index + 1}`}>
              <div className="flex items-center justify-between gap-2">
                <h2 className="font-semibold text-slate-900">Änderung {index + 1}</h2>
                <Button variant="outline" size="sm" disabled={changes.fields.length <= 1} onClick={() => changes.remove(index)} aria-label={`Änderung ${index + 1} entfernen`}>
                  <Trash2 className="size-4" aria-hidden="true" /> Entfernen
                </Button>
              </div>
              <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
                <Field label="Titel der Änderung" autoComplete="off" maxLength={150} error={errors.changes?.[index]?.title?.message} {...form.register(`changes.${index}.title`)} />
                <SelectField label="Typ der Änderung" error={errors.changes?.[index]?.type?.message} {...form.register(`changes.${index}.type`)}>
                  {changelogTypes.map((t) => <option key={t} value={t}>{changelogTypeLabel(t)}</option>)}
                </SelectField>
              </div>
              <TextareaField label="Beschreibung der Änderung" rows={2} error={errors.changes?.[index]?.description?.message} {...form.register(`changes.${index}.description`)} />
            </Card>
          ))}
          <Button variant="outline" className="self-start" disabled={changes.fields.length >= 50} onClick={() => changes.append(emptyChange)}>
            <Plus className="size-4" aria-hidden="true" /> Weitere Änderung hinzufügen
          </Button>
        </fieldset>
        <div className="flex flex-wrap justify-between gap-3">
          {entry
            ? <ConfirmDialog trigger={<Button variant="outline" className="text-red-700"><Trash2 className="size-4" aria-hidden="true" /> Eintrag löschen</Button>} title="Eintrag löschen?" description={`„${entry.title}“ wird endgültig aus dem Changelog entfernt.`} onConfirm={onDelete} />
            : <span />}
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => void navigate(entry ? paths.changelogEntry(entry.id) : paths.changelog)}>Abbrechen</Button>
            <Button type="submit" loading={form.formState.isSubmitting}>Speichern</Button>
          </div>
        </div>
      </form>
    </div>
  );
}

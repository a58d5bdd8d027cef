import type { ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { Trash2 } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { Modal } from '../ui/modal.tsx';
import { errorMessage, iconDeleteClass } from './sub-page-header.tsx';

/** The trash button of a staff table row: asks, deletes, and reports the result as a toast. */
export function DeleteRecordButton({ label, title, description, confirmLabel, remove, removed }: {
  /** The button's accessible name, naming the row ("IP-Adresse 203.0.113.10 löschen"). */
  label: string;
  title: string;
  description: string;
  confirmLabel?: string;
  remove: () => Promise<unknown>;
  /** The success toast. */
  removed: string;
}) {
  return (
    <ConfirmDialog
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      onConfirm={() =>
        remove().then(
          () => toast.success(removed),
          (err: unknown) => { toast.error(errorMessage(err)); throw err; },
        )}
      trigger={
        <button type="button" className={iconDeleteClass} aria-label={label}>
          <Trash2 className="size-5" aria-hidden="true" />
        </button>
      }
    />
  );
}

/**
 * The "… hinzufügen" dialog of a staff list page around the caller's fields: it saves, reports the
 * result as a toast, and empties the form when it closes.
 */
export function AddRecordDialog<T extends FieldValues, R>({ open, onOpenChange, title, description, form, create, created, failed = errorMessage, children }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  form: UseFormReturn<T>;
  create: { mutateAsync: (values: T) => Promise<R>; isPending: boolean };
  /** The success toast for the saved record. */
  created: (record: R) => string;
  /** The failure toast. */
  failed?: (err: unknown) => string;
  children: ReactNode;
}) {
  const close = (next: boolean) => {
    if (!next) form.reset();
    onOpenChange(next);
  };
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const record = await create.mutateAsync(values);
      toast.success(created(record));
      close(false);
    } catch (err) {
      toast.error(failed(err));
    }
  });
  return (
    <Modal open={open} onOpenChange={close} title={title} description={description}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {children}
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => close(false)}>Abbrechen</Button>
          <Button type="submit" loading={create.isPending}>Hinzufügen</Button>
        </div>
      </form>
    </Modal>
  );
}

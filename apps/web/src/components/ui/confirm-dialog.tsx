import { useState, type ReactElement } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Button } from './button.tsx';

export interface ConfirmDialogProps {
  /** The element that opens the dialog (rendered with asChild); without it, pass `open`/`onOpenChange`. */
  trigger?: ReactElement;
  /** Controlled use, e.g. when a switch asks only in one direction. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Runs on confirm; the dialog closes when it resolves and stays open when it throws. */
  onConfirm: () => Promise<unknown> | void;
}

/** Asks before a destructive action. Focus is trapped and returns to the trigger on close. */
export function ConfirmDialog({ trigger, open: controlledOpen, onOpenChange, title, description, confirmLabel = 'Löschen', cancelLabel = 'Abbrechen', onConfirm }: ConfirmDialogProps) {
  const [uncontrolledOpen, setUncontrolledOpen] = useState(false);
  const open = controlledOpen ?? uncontrolledOpen;
  const setOpen = (next: boolean) => (onOpenChange ?? setUncontrolledOpen)(next);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The caller reports the failure (toast); keep the dialog open for another try.
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      {trigger && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-700">{description}</Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="outline" disabled={pending}>{cancelLabel}</Button>
            </Dialog.Close>
            <Button variant="danger" loading={pending} onClick={confirm}>{confirmLabel}</Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

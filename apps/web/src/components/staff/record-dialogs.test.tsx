// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { toast } from 'sonner';
import { spyOnToasts } from '../../testing/toasts.ts';
import { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import { Field } from '../ui/field.tsx';
import { useSchemaForm } from '../../lib/forms.ts';
import { AddRecordDialog, DeleteRecordButton } from './record-dialogs.tsx';

spyOnToasts();

const Input = z.object({ name: z.string().trim().min(1, 'Bitte geben Sie einen Namen ein.') });
type Input = z.infer<typeof Input>;

function Harness({ mutateAsync }: { mutateAsync: (values: Input) => Promise<{ name: string }> }) {
  const [open, setOpen] = useState(false);
  const form = useSchemaForm<Input>({ resolver: zodResolver(Input), defaultValues: { name: '' } });
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Öffnen</button>
      <AddRecordDialog open={open} onOpenChange={setOpen} form={form} create={{ mutateAsync, isPending: false }}
        created={(r) => `„${r.name}“ wurde eingetragen.`} title="Ding hinzufügen" description="Ein neues Ding.">
        <Field label="Name" error={form.formState.errors.name?.message} {...form.register('name')} />
      </AddRecordDialog>
    </>
  );
}

describe('staff list dialogs', () => {
  afterEach(() => {
    cleanup();
    vi.clearAllMocks();
  });

  it('saves the record, reports it and closes; a refusal keeps the dialog open; the form is empty when opened again', async () => {
    const mutateAsync = vi.fn(async (values: Input) => values);
    mutateAsync.mockRejectedValueOnce(new Error('Der Name ist schon vergeben.'));
    render(<Harness mutateAsync={mutateAsync} />);
    fireEvent.click(screen.getByRole('button', { name: 'Öffnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ding hinzufügen' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'alpha' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Der Name ist schon vergeben.'));
    expect(screen.getByRole('dialog', { name: 'Ding hinzufügen' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('„alpha“ wurde eingetragen.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Öffnen' }));
    const again = await screen.findByRole('dialog', { name: 'Ding hinzufügen' });
    expect((within(again).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('deletes a row after the confirmation and reports a refusal without closing', async () => {
    const remove = vi.fn(async () => null).mockRejectedValueOnce(new Error('Es liegen noch Server darauf.'));
    render(<DeleteRecordButton label="Ding alpha löschen" title="Ding löschen?" description="„alpha“ wird entfernt." remove={remove} removed="„alpha“ wurde gelöscht." />);
    fireEvent.click(screen.getByRole('button', { name: 'Ding alpha löschen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Ding löschen?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Es liegen noch Server darauf.'));
    expect(screen.getByRole('dialog', { name: 'Ding löschen?' })).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('„alpha“ wurde gelöscht.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(remove).toHaveBeenCalledTimes(2);
  });
});

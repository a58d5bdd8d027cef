// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ShareResult } from '@hp/contract';
import { AccessSection, type AccessLabels, type AccessSectionProps } from './access-section.tsx';

const labels: AccessLabels = {
  intro: 'Geteilte Benutzer können das Ding bedienen.',
  sharedNote: 'Das Ding wurde mit Ihnen geteilt.',
  empty: 'Das Ding ist mit niemandem geteilt.',
  addDescription: 'Wer soll das Ding mitverwalten?',
  removeDescription: (u) => `${u} verliert das Ding.`,
  shared: (u) => `Geteilt mit ${u}.`,
  unshared: (u) => `Entfernt: ${u}.`,
};

function renderSection(props: Partial<AccessSectionProps> = {}) {
  const share = { mutateAsync: vi.fn(async (username: string): Promise<ShareResult> => ({ username, since: '2026-11-26T10:00:00.000Z' })), isPending: false };
  const unshare = { mutateAsync: vi.fn(async () => null) };
  render(
    <AccessSection headingId="access-heading" labels={labels} canManage shares={[]} share={share} unshare={unshare}
      errorText={(err, fallback) => (err instanceof Error && err.message ? err.message : fallback)} {...props} />,
  );
  return { share, unshare, region: screen.getByRole('region', { name: 'Zugriffsverwaltung' }) };
}

describe('access section (shared by servers and hosting packages)', () => {
  afterEach(cleanup);

  it('lists the users with access and the date in Berlin time, and takes one back after a confirmation', async () => {
    const { unshare, region } = renderSection({ shares: [{ username: 'erika', since: '2026-03-01T23:30:00.000Z' }] });
    expect(within(region).getByText('Geteilte Benutzer können das Ding bedienen.')).toBeTruthy();
    expect(within(region).getByText('erika')).toBeTruthy();
    expect(within(region).getByText('Zugriff seit 02.03.2026')).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Zugriff von erika entfernen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Zugriff entfernen?' });
    expect(within(confirm).getByText('erika verliert das Ding.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Entfernen' }));
    await waitFor(() => expect(unshare.mutateAsync).toHaveBeenCalledWith('erika'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('adds a user through the dialog and shows a refusal at the field', async () => {
    const { share, region } = renderSection();
    expect(within(region).getByText('Das Ding ist mit niemandem geteilt.')).toBeTruthy();
    share.mutateAsync.mockRejectedValueOnce(new Error('Benutzer nicht gefunden.'));
    fireEvent.click(within(region).getByRole('button', { name: 'Benutzer hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Benutzer hinzufügen' });
    expect(within(dialog).getByText('Wer soll das Ding mitverwalten?')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Benutzername'), { target: { value: 'niemand' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    expect(await within(dialog).findByText('Benutzer nicht gefunden.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Benutzername'), { target: { value: 'max' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(share.mutateAsync).toHaveBeenLastCalledWith('max');
  });

  it('shows a shared user the note instead of the list, and no add button', () => {
    const { region } = renderSection({ canManage: false, shares: undefined });
    expect(within(region).getByText('Das Ding wurde mit Ihnen geteilt.')).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Benutzer hinzufügen' })).toBeNull();
  });

  it('shows the loading state and a load error to the owner', () => {
    renderSection({ shares: undefined });
    expect(screen.getByRole('status').textContent).toContain('Lade Freigaben …');
    cleanup();
    renderSection({ shares: undefined, loadError: 'Die Freigaben konnten nicht geladen werden.' });
    expect(screen.getByText('Die Freigaben konnten nicht geladen werden.')).toBeTruthy();
  });
});

// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { profileMessages, taxMessages } from '@hp/contract';
import { RegisterPage } from './register-page.tsx';

describe('registration: country and Firmenkunde (issue 24)', () => {
  beforeEach(() => vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} }));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('sends country, company and VAT ID; asks for the ID only for an EU company', async () => {
    const sent: Record<string, unknown>[] = [];
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return new Response(JSON.stringify({ code: 'REGISTRATION_SUCCESSFUL', message: 'Registrierung erfolgreich', userId: '3f0c1f8e-2b7a-4c3e-9d1a-5e6f7a8b9c0d' }), { status: 201, headers: { 'content-type': 'application/json' } });
    }));
    render(<MemoryRouter><RegisterPage /></MemoryRouter>);
    fireEvent.change(screen.getByLabelText('Benutzername'), { target: { value: 'alpen' } });
    fireEvent.change(screen.getByLabelText('E-Mail'), { target: { value: 'alpen@example.com' } });
    fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: 'Sicher!Passwort1' } });
    fireEvent.change(screen.getByLabelText('Passwort bestätigen'), { target: { value: 'Sicher!Passwort1' } });
    expect((screen.getByLabelText('Land') as HTMLSelectElement).value).toBe('DE');
    fireEvent.change(screen.getByLabelText('Land'), { target: { value: 'AT' } });
    expect(screen.queryByLabelText('USt-IdNr.')).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Firmenkunde' }));
    fireEvent.change(await screen.findByLabelText('USt-IdNr.'), { target: { value: 'ATU12' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Konto erstellen' })));
    expect(await screen.findByText(profileMessages.companyNameRequired)).toBeTruthy();
    expect(screen.getByText(taxMessages.vatIdWrongFormat('Österreich'))).toBeTruthy();
    expect(sent).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Firmenname'), { target: { value: 'Alpen Hosting GmbH' } });
    fireEvent.change(screen.getByLabelText('USt-IdNr.'), { target: { value: 'ATU12345678' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Konto erstellen' })));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ username: 'alpen', country: 'AT', business: true, companyName: 'Alpen Hosting GmbH', vatId: 'ATU12345678' });
  });
});

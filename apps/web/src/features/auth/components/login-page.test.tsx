// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { Toaster } from 'sonner';
import { messages } from '@hp/contract';
import { LoginPage } from './login-page.tsx';

describe('login: the message of a failed attempt', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows once per failure and is gone when the next attempt signs in', async () => {
    const answers = [
      () => new Response(JSON.stringify({ error: { code: 'INVALID_DATA', message: messages.invalidLogin } }), { status: 401, headers: { 'content-type': 'application/json' } }),
      () => new Response(JSON.stringify({ error: { code: 'INVALID_DATA', message: messages.invalidLogin } }), { status: 401, headers: { 'content-type': 'application/json' } }),
      () => new Response(JSON.stringify({ token: 'header.payload.signature' }), { status: 200, headers: { 'content-type': 'application/json' } }),
    ];
    vi.stubGlobal('fetch', vi.fn(async () => answers.shift()!()));
    render(
      <MemoryRouter initialEntries={['/login']}>
        <Toaster />
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/dashboard" element={<h1>Meine Produkte</h1>} />
        </Routes>
      </MemoryRouter>,
    );
    fireEvent.change(screen.getByLabelText('Benutzername'), { target: { value: 'kunde' } });
    for (const password of ['falsch', 'nochmal-falsch']) {
      fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: password } });
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Anmelden' })));
      await waitFor(() => expect(screen.getAllByText(messages.invalidLogin)).toHaveLength(1));
    }

    fireEvent.change(screen.getByLabelText('Passwort'), { target: { value: 'Sicher!Passwort1' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Anmelden' })));
    expect(await screen.findByRole('heading', { name: 'Meine Produkte' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(messages.invalidLogin)).toBeNull());
  });
});

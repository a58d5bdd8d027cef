// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { StaffTicketDetail, StaffTicketMessageInput } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import SupporterTicketPage from './supporter-ticket-page.tsx';

const ID = '6b1d0c2e-8f4a-4e7b-9c3d-1a2b3c4d5e6f';
const ticket = (status: StaffTicketDetail['status']): StaffTicketDetail => ({
  id: ID, title: 'Kein SSH', description: 'Seit gestern keine Verbindung.', type: 'technical', status, server: null,
  createdAt: '2026-11-27T09:00:00.000Z', updatedAt: '2026-11-27T09:00:00.000Z',
  assignee: { id: 'u1', name: 'mitarbeiter' }, mine: true, waitingSince: null, firstResponseAt: null,
  customer: { id: 'c1', customerNumber: 10001, name: 'kunde', email: 'kunde@example.com', servers: [] },
  affectedServer: null,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake API for the page: the ticket, an empty chat, and every posted message recorded. */
function renderPage(status: StaffTicketDetail['status'] = 'in_progress') {
  const posted: StaffTicketMessageInput[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = url.replace(/\?.*$/, '');
    if (path === `/api/staff/tickets/${ID}` && init.method === 'GET') return json(ticket(status));
    if (path === `/api/staff/tickets/${ID}/messages` && init.method === 'POST') {
      const input = JSON.parse(String(init.body)) as StaffTicketMessageInput;
      posted.push(input);
      return json({ id: String(posted.length), body: input.body, author: 'staff', authorName: 'mitarbeiter', internal: input.internal ?? false, attachments: [], createdAt: '2026-11-27T10:00:00.000Z' }, 201);
    }
    if (path === `/api/staff/tickets/${ID}/messages`) return json({ items: [], nextCursor: null });
    if (path === `/api/staff/tickets/${ID}/secrets`) return json({ secrets: [] });
    if (path === `/api/staff/tickets/${ID}/presence`) return init.method === 'DELETE' ? new Response(null, { status: 204 }) : json({ viewers: [] });
    return json({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }, 404);
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/supporter/${ID}`]}>
        <Routes><Route path="/supporter/:ticketId" element={<SupporterTicketPage />} /></Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { posted };
}

const chat = () => screen.getByRole('region', { name: 'Chat' });
const modeSwitch = () => within(chat()).getByRole('group', { name: 'Art der Nachricht' });

describe('supporter ticket view: one composer with an explicit mode', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('has one message box, in mode "Antwort" by default, and Enter sends a reply to the customer (not a note)', async () => {
    const { posted } = renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Kein SSH' });
    const answer = within(modeSwitch()).getByRole('radio', { name: 'Antwort' });
    const note = within(modeSwitch()).getByRole('radio', { name: 'Interne Notiz' });
    expect((answer as HTMLInputElement).checked).toBe(true);
    expect((note as HTMLInputElement).checked).toBe(false);
    // Only one box can be typed into: the two look-alike boxes are gone.
    expect(within(chat()).getAllByRole('textbox')).toHaveLength(1);
    const box = within(chat()).getByRole('textbox', { name: 'Antwort an den Kunden' });
    fireEvent.change(box, { target: { value: 'Bitte starten Sie den Server neu.' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(posted).toEqual([{ body: 'Bitte starten Sie den Server neu.', attachmentIds: [], internal: false }]));
  });

  it('in mode "Interne Notiz" the box says it is only for staff, saves with "Notiz speichern", and each mode keeps its draft', async () => {
    const { posted } = renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Kein SSH' });
    fireEvent.change(within(chat()).getByRole('textbox', { name: 'Antwort an den Kunden' }), { target: { value: 'Entwurf an den Kunden' } });

    fireEvent.click(within(modeSwitch()).getByRole('radio', { name: 'Interne Notiz' }));
    expect((within(modeSwitch()).getByRole('radio', { name: 'Interne Notiz' }) as HTMLInputElement).checked).toBe(true);
    expect(within(chat()).getAllByRole('textbox')).toHaveLength(1);
    const box = within(chat()).getByRole('textbox', { name: 'Interne Notiz – nur für Mitarbeiter sichtbar' });
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(box.closest('form')!.className).toContain('bg-amber-50');
    expect(within(chat()).queryByRole('button', { name: 'Senden' })).toBeNull();
    fireEvent.change(box, { target: { value: 'NUR-INTERN: Firewall war zu.' } });
    fireEvent.click(within(chat()).getByRole('button', { name: 'Notiz speichern' }));
    await waitFor(() => expect(posted).toEqual([{ body: 'NUR-INTERN: Firewall war zu.', attachmentIds: [], internal: true }]));

    fireEvent.click(within(modeSwitch()).getByRole('radio', { name: 'Antwort' }));
    expect((within(chat()).getByRole('textbox', { name: 'Antwort an den Kunden' }) as HTMLTextAreaElement).value).toBe('Entwurf an den Kunden');
    expect(within(chat()).getByRole('button', { name: 'Senden' })).toBeTruthy();
  });

  it('on a closed ticket only notes can be written: "Antwort" is disabled and the note mode chosen', async () => {
    renderPage('closed');
    await screen.findByRole('heading', { level: 1, name: 'Kein SSH' });
    expect((within(modeSwitch()).getByRole('radio', { name: 'Antwort' }) as HTMLInputElement).disabled).toBe(true);
    expect((within(modeSwitch()).getByRole('radio', { name: 'Interne Notiz' }) as HTMLInputElement).checked).toBe(true);
    expect(within(chat()).getAllByRole('textbox').map((box) => box.getAttribute('id'))).toEqual(['composer-note']);
    expect(within(chat()).getByText('Das Ticket ist geschlossen; nur interne Notizen sind möglich.')).toBeTruthy();
  });
});

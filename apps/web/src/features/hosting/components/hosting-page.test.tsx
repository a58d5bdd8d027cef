// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { HostingApp, HostingBackups, HostingDatabases, HostingDetail } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import { isHostingBusy } from '../api/hosting.ts';
import HostingPage from './hosting-page.tsx';

import { ID, detail, site } from './hosting-fixtures.ts';

const databases: HostingDatabases = {
  prefix: 'c12_', limit: 10, phpMyAdminUrl: 'https://web1.example.com/phpmyadmin/',
  databases: [{ id: '5', name: 'c12_shop', user: 'c12_shop', userId: '9', sizeMb: null, tables: null }],
  users: [{ id: '9', name: 'c12_shop' }],
};
const backups: HostingBackups = { items: [{ id: '77', date: '2026-11-20T03:00:00.000Z', sizeBytes: 52_428_800, content: 'web', automatic: true }], restorePending: false };

function renderPage(shown: HostingDetail = detail) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const body = url === `/api/hosting/${ID}` ? shown : url === `/api/hosting/${ID}/backups` ? backups : url === `/api/hosting/${ID}/databases` ? databases : null;
    return body ? new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }), { status: 404 });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/dashboard/webhosting/${ID}`]}>
        <Routes><Route path="/dashboard/webhosting/:hostingId" element={<HostingPage />} /></Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('web hosting package page', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('names the panel button after the real panel and opens the site and the panel in a new tab without opener', async () => {
    renderPage();
    const panel = await screen.findByRole('link', { name: /ISPConfig/ });
    expect(panel.getAttribute('href')).toBe(site.panelUrl);
    expect(panel.getAttribute('rel')).toBe('noopener noreferrer');
    const [website] = screen.getAllByRole('link', { name: /Website öffnen/ });
    expect(website!.getAttribute('href')).toBe('https://meine-firma.de');
    expect(website!.getAttribute('target')).toBe('_blank');
  });

  it('a package whose set-up failed offers no website, restart or panel, and says the payment is refunded', async () => {
    renderPage({ ...detail, status: 'failed', statusMessage: 'Das Hosting-Panel hat den Auftrag abgelehnt.', site: null });
    expect(await screen.findByText(/Die Zahlung wird automatisch erstattet/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Website öffnen/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Neustart|neustarten/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /ISPConfig/ })).toBeNull();
  });

  it('explains that no restart is needed instead of pretending to restart Apache', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Neustart' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apache neustarten' });
    expect(dialog.textContent).toContain('Ein Neustart ist nicht nötig');
    expect(dialog.textContent).toContain('Alle Änderungen sind übernommen');
    const buttons = within(dialog).getAllByRole('button').map((b) => b.textContent?.trim());
    expect(buttons.filter((b) => b !== '')).toEqual(['Schließen']);
  });

  it('offers no "Backup erstellen" where the panel cannot, and shows the copies the retention really keeps', async () => {
    renderPage();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Backups' }));
    await screen.findByRole('table', { name: 'Backups des Pakets' });
    expect(screen.queryByRole('button', { name: /Backup erstellen/ })).toBeNull();
    expect(screen.getByText(/ein sofortiges Backup bietet das Panel nicht an/)).toBeTruthy();
    // weekly × 30 days → 5 copies (the panel's allowed counts), covering 35 days
    expect(screen.getByText(/werden 5 Kopien aufbewahrt; sie decken 35 Tage ab/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Automatische Backups'), { target: { value: 'daily' } });
    await waitFor(() => expect(screen.getByText(/werden 30 Kopien aufbewahrt; sie decken 30 Tage ab/)).toBeTruthy());
  });
});

describe('package page: databases, domain "Verwalten", Apache host selector', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });
  const addon = { id: '2', domain: 'shop.example.org', type: 'addon' as const, directory: '/var/www/clients/client12/web12/web/shop.example.org', documentRoot: '/var/www/clients/client12/web12/web/shop.example.org', ssl: 'none' as const, dnsManaged: false };

  it('shows "–" for tables and size the panel does not report, with the reason for screen readers; "Verwalten" opens the database', async () => {
    renderPage();
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Datenbanken' }));
    const table = await screen.findByRole('table', { name: 'MySQL-Datenbanken' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Benutzer', 'Größe', 'Tabellen', 'phpMyAdmin', 'Verwalten']);
    expect(within(table).getByText('ISPConfig meldet die Anzahl der Tabellen nicht; phpMyAdmin zeigt sie.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Benutzer erstellen' })).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Datenbank c12_shop verwalten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Datenbank c12_shop' });
    expect(dialog.textContent).toContain('localhost');
    expect(within(dialog).getByRole('button', { name: 'Datenbank löschen' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: /In phpMyAdmin öffnen/ }).getAttribute('href')).toBe(databases.phpMyAdminUrl);
  });

  it('the domain dialog names the hosting server for DNS and offers "SSL aktivieren" and "Domain entfernen" for an addon without a certificate', async () => {
    renderPage({ ...detail, site: { ...site, domains: [...site.domains, addon] } });
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Website' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Domain shop.example.org verwalten' }));
    const dialog = await screen.findByRole('dialog', { name: 'Domain shop.example.org' });
    expect(dialog.textContent).toContain('A- und AAAA-Einträge');
    expect(dialog.textContent).toContain('web1.example.com');
    expect(dialog.textContent).toContain('/web/shop.example.org');
    expect(within(dialog).getByRole('button', { name: 'SSL aktivieren' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Domain entfernen' })).toBeTruthy();
  });

  it('the Apache block has a virtual-host selector and tells the .htaccess path of the chosen host, no editor', async () => {
    renderPage({ ...detail, site: { ...site, domains: [...site.domains, addon] } });
    fireEvent.mouseDown(await screen.findByRole('tab', { name: 'Website' }));
    const block = await screen.findByRole('region', { name: 'Apache und .htaccess' });
    const select = within(block).getByLabelText('Virtueller Host');
    expect(block.textContent).toContain('/var/www/clients/client12/web12/web/.htaccess');
    expect(block.textContent).toContain('/web/.htaccess');
    fireEvent.change(select, { target: { value: '2' } });
    await waitFor(() => expect(block.textContent).toContain('/var/www/clients/client12/web12/web/shop.example.org/.htaccess'));
    expect(block.textContent).toContain('/web/shop.example.org/.htaccess');
    expect(block.textContent).toContain('c12_ftp');
    expect(within(block).queryByRole('textbox')).toBeNull();
    expect(within(block).queryByRole('button', { name: /speichern/i })).toBeNull();
  });
});

describe('isHostingBusy', () => {
  it('polls while the package is set up, a change is pending, SSL is issued or an app job runs, and not otherwise', () => {
    expect(isHostingBusy(detail)).toBe(false);
    expect(isHostingBusy({ ...detail, status: 'provisioning', site: null })).toBe(true);
    expect(isHostingBusy({ ...detail, site: { ...site, pendingChanges: true } })).toBe(true);
    expect(isHostingBusy({ ...detail, site: { ...site, domains: [{ ...site.domains[0]!, ssl: 'pending' }] } })).toBe(true);
    const idle: HostingApp = { kind: 'wordpress', version: '6.6', latestVersion: '6.7', state: 'installed', plugins: [], themes: [], job: null, lastSecurityCheck: null, lastOptimized: null };
    expect(isHostingBusy({ ...detail, site: { ...site, app: { ...idle, state: 'updating' } } })).toBe(true);
    expect(isHostingBusy({ ...detail, site: { ...site, app: idle } })).toBe(false);
    // A security check or an optimisation changes nothing on the site but still runs: the page polls for its result.
    expect(isHostingBusy({ ...detail, site: { ...site, app: { ...idle, job: { kind: 'security-check', target: null, startedAt: '2026-11-26T10:00:00.000Z' } } } })).toBe(true);
  });
});

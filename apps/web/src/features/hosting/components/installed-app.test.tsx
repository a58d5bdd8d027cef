// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { HostingApp, HostingDetail } from '@hp/contract';
import { setToken } from '../../../lib/session.ts';
import { InstalledApp } from './installed-app.tsx';

import { ID, detail as ispconfigDetail, site as ispconfigSite } from './hosting-fixtures.ts';

/** The same package on the simulated panel, where one-click apps and their tools exist. */
const site: NonNullable<HostingDetail['site']> = {
  ...ispconfigSite,
  domains: [{ id: '1', domain: 'meine-firma.de', type: 'primary', directory: '/web', documentRoot: '/', ssl: 'active', dnsManaged: false }],
  databasesUsed: 1,
  ftp: { host: 'ftp.meine-firma.de', username: 'c12', port: 21, directory: '/var/www/clients/client12/web12' },
  phpMyAdminUrl: 'http://localhost/simulated-panel/phpmyadmin', panelUrl: 'http://localhost/simulated-panel',
};
const detail: HostingDetail = {
  ...ispconfigDetail, hostingId: '1001', phpVersions: ['8.1', '8.2'], site, websiteType: 'wordpress',
  capabilities: { apps: true, backupNow: true, htaccess: false }, panelName: 'Hosting-Panel (Demo)',
};
const wordpress: HostingApp = {
  kind: 'wordpress', version: '6.6.2', latestVersion: '6.7.1', state: 'installed', job: null, lastOptimized: null,
  plugins: [
    { slug: 'akismet', name: 'Akismet Anti-Spam', version: '5.3.3', latestVersion: '5.3.5', update: 'available', active: true },
    { slug: 'wordpress-seo', name: 'Yoast SEO', version: '23.5', latestVersion: '23.5', update: 'none', active: true },
    { slug: 'contact-form-7', name: 'Contact Form 7', version: '5.9.6', latestVersion: '5.9.8', update: 'critical', active: false },
  ],
  themes: [
    { slug: 'twentytwentyfour', name: 'Twenty Twenty-Four', version: '1.2', latestVersion: '1.2', active: true, update: 'none' },
    { slug: 'twentytwentythree', name: 'Twenty Twenty-Three', version: '1.4', latestVersion: '1.5', active: false, update: 'available' },
  ],
  lastSecurityCheck: {
    at: '2026-11-26T10:15:00.000Z',
    findings: [{ severity: 'critical', text: 'Das Plugin „Contact Form 7“ 5.9.6 hat eine bekannte Sicherheitslücke.' }, { severity: 'info', text: 'Das Plugin „Contact Form 7“ ist deaktiviert.' }],
  },
};

let calls: { url: string; method: string; body: unknown }[] = [];
function renderApp(app: HostingApp) {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return new Response(JSON.stringify({ message: 'Erledigt.' }), { status: 200, headers: { 'content-type': 'application/json' } });
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><InstalledApp detail={detail} site={{ ...site, app }} app={app} /></QueryClientProvider>);
}

describe('the installed application on the Website tab', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the last security check with its time and findings, and offers the three tools', () => {
    renderApp(wordpress);
    const findings = screen.getByRole('list', { name: 'Befunde des Sicherheits-Checks' });
    expect(within(findings).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'KritischDas Plugin „Contact Form 7“ 5.9.6 hat eine bekannte Sicherheitslücke.', 'HinweisDas Plugin „Contact Form 7“ ist deaktiviert.',
    ]);
    expect(screen.getByText(/Geprüft am 26\.11\.2026/)).toBeTruthy();
    for (const name of ['Sicherheits-Check', 'Datenbank optimieren', 'Alle aktualisieren']) expect((screen.getByRole('button', { name: new RegExp(name) }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('plugin rows: "Aktualisieren" only with an update, "Deaktivieren" or "Aktivieren" by state; the click sends the change', async () => {
    renderApp(wordpress);
    expect(screen.getByRole('button', { name: 'Plugin Akismet Anti-Spam aktualisieren' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Plugin Yoast SEO aktualisieren' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Plugin Contact Form 7 aktivieren' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Plugin Yoast SEO deaktivieren' }));
    await waitFor(() => expect(calls).toContainEqual({ url: `/api/hosting/${ID}/app/plugins/wordpress-seo`, method: 'PUT', body: { active: false } }));
  });

  it('theme rows: "Anpassen" opens the customizer of that theme in a new tab; "Aktivieren" only for an inactive theme', async () => {
    renderApp(wordpress);
    const customize = screen.getByRole('link', { name: /Theme Twenty Twenty-Three anpassen/ });
    expect(customize.getAttribute('href')).toBe('https://meine-firma.de/wp-admin/customize.php?theme=twentytwentythree');
    expect(customize.getAttribute('target')).toBe('_blank');
    expect(customize.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.queryByRole('button', { name: 'Theme Twenty Twenty-Four aktivieren' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Theme Twenty Twenty-Three aktivieren' }));
    await waitFor(() => expect(calls).toContainEqual({ url: `/api/hosting/${ID}/app/themes/twentytwentythree/activate`, method: 'POST', body: undefined }));
  });

  it('"Alle aktualisieren" asks first and only then starts the update', async () => {
    renderApp(wordpress);
    fireEvent.click(screen.getByRole('button', { name: 'Alle aktualisieren' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alles aktualisieren?' });
    expect(dialog.textContent).toContain('verändert Ihre Website');
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Alle aktualisieren' }));
    await waitFor(() => expect(calls).toContainEqual({ url: `/api/hosting/${ID}/app/tools`, method: 'POST', body: { tool: 'update-all' } }));
  });

  it('while a job runs, every action is disabled and the running tool says so (aria-busy)', () => {
    renderApp({ ...wordpress, job: { kind: 'security-check', target: null, startedAt: '2026-11-26T10:20:00.000Z' } });
    const running = screen.getByRole('button', { name: /Sicherheits-Check läuft/ });
    expect(running.getAttribute('aria-busy')).toBe('true');
    expect((running as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: /Datenbank optimieren/ }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Plugin Yoast SEO deaktivieren' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Theme Twenty Twenty-Three aktivieren' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Der Sicherheits-Check läuft; diese Seite aktualisiert sich selbst/)).toBeTruthy();
  });

  it('Joomla: templates instead of themes, customised in its administrator', () => {
    renderApp({
      ...wordpress, kind: 'joomla', version: '5.1.4', latestVersion: '5.2.1', plugins: [], lastSecurityCheck: null,
      lastOptimized: { at: '2026-11-26T10:15:00.000Z', savedMb: 1.4 },
      themes: [{ slug: 'cassiopeia', name: 'Cassiopeia', version: '5.1', latestVersion: '5.1', active: true, update: 'none' }],
    });
    expect(screen.getByRole('heading', { name: 'Templates' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Template Cassiopeia anpassen/ }).getAttribute('href')).toBe('https://meine-firma.de/administrator/index.php?option=com_templates&view=templates&client_id=0');
    expect(screen.getByText(/1,4 MB freigegeben/)).toBeTruthy();
  });
});

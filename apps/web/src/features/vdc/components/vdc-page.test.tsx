// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { VdcDetail, VdcIso } from '@hp/contract';
import { clearToken, setToken } from '../../../lib/session.ts';
import { isoUploadSettings } from '../api/iso-upload.ts';
import VdcPage from './vdc-page.tsx';

const ID = '5f0c2b1e-8d3a-4e6f-9b7c-1a2d3e4f5a6b';
const VM1 = '11111111-2222-4333-8444-555555555555';
const VM2 = '66666666-7777-4888-9999-aaaaaaaaaaaa';
const ISO_ID = 'bbbbbbbb-cccc-4ddd-8eee-ffffffffffff';
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

const detail: VdcDetail = {
  id: ID, number: 1001, name: 'Projekt Alpha', status: 'active', statusMessage: null, expiresAt: '2027-01-15T00:00:00.000Z',
  cpu: { used: 6, total: 8 }, ramGb: { used: 12, total: 16 }, storageGb: { used: 160, total: 200 }, ipv4: { used: 1, total: 2 }, vms: 2,
  isoLibrary: { used: 5 * GIB, total: 50 * GIB, unit: 'bytes' }, maxVms: 20,
  network: { cidr: null, status: 'none' },
  vmList: [
    { id: VM1, name: 'web-1', status: 'online', cpuCores: 4, ramGb: 8, diskGb: 100, os: 'Debian 12', publicIpv4: '203.0.113.10', privateAddress: null, isoId: null },
    { id: VM2, name: 'db-1', status: 'offline', cpuCores: 2, ramGb: 4, diskGb: 60, os: 'Ubuntu 24.04', publicIpv4: null, privateAddress: null, isoId: null },
  ],
  isos: [],
  ipv4List: [{ id: 7, address: '203.0.113.10', serverId: VM1 }, { id: 8, address: '203.0.113.11', serverId: null }],
  renewPath: `/shop/vdc-request?renew=${ID}`, graceDays: 14,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
interface Call { url: string; method: string; headers: Record<string, string>; body: unknown }
type Handler = (call: Call) => Response | undefined;

function renderPage(shown: VdcDetail = detail, handler: Handler = () => undefined) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const call: Call = { url, method: init?.method ?? 'GET', headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body };
    calls.push(call);
    const answer = handler(call);
    if (answer) return answer;
    if (url === `/api/vdcs/${ID}` && call.method === 'GET') return json(shown);
    return json({ error: { code: 'NOT_FOUND', message: 'Nicht gefunden.' } }, 404);
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/dashboard/vdc/${ID}`]}>
        <Routes>
          <Route path="/dashboard/vdc/:vdcId" element={<VdcPage />} />
          <Route path="/404" element={<p>Seite nicht gefunden</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

/** Images of 8 MiB take a while to build and slice on a loaded machine. */
const SLOW = 10_000;
const sent = (calls: Call[], method: string, url: string) => calls.filter((c) => c.method === method && c.url === url);
const jsonBody = (call: Call | undefined) => JSON.parse(String(call?.body)) as unknown;

describe('virtual data center page (issue 25)', () => {
  beforeEach(() => setToken('token'));
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
  });

  it('shows the header with VDC-ID, status, term and the renewal link, and every pool resource as a labelled bar', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Projekt Alpha' })).toBeTruthy();
    expect(screen.getByText(/VDC-ID 1001 · läuft bis 15\.01\.2027/)).toBeTruthy();
    expect(screen.getAllByText('Aktiv').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: /Verlängern \/ erweitern/ }).getAttribute('href')).toBe(`/shop/vdc-request?renew=${ID}`);

    const cpu = screen.getByRole('progressbar', { name: 'vCPU' });
    expect(cpu.getAttribute('aria-valuenow')).toBe('75');
    expect(cpu.getAttribute('aria-valuetext')).toBe('6 von 8 Kernen belegt (75 %), frei: 2 Kerne');
    expect(screen.getByRole('progressbar', { name: 'RAM' }).getAttribute('aria-valuetext')).toBe('12 von 16 GB belegt (75 %), frei: 4 GB');
    expect(screen.getByRole('progressbar', { name: 'Speicher' }).getAttribute('aria-valuenow')).toBe('80');
    expect(screen.getByRole('progressbar', { name: 'IPv4' }).getAttribute('aria-valuetext')).toBe('1 von 2 Adressen vergeben (50 %), frei: 1 Adresse');
    expect(screen.getByRole('progressbar', { name: 'ISO-Bibliothek' }).getAttribute('aria-valuetext')).toBe('5 GB von 50 GB belegt (10 %), frei: 45 GB');
  });

  it('lists the VMs with resources and addresses, "Verwalten" opening the root server panel', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'VMs' });
    const row = within(table).getByRole('rowheader', { name: 'web-1' }).closest('tr')!;
    expect(row.textContent).toContain('4 Kerne · 8 GB RAM · 100 GB');
    expect(row.textContent).toContain('203.0.113.10');
    expect(within(row).getByText('Online')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'web-1 verwalten' }).getAttribute('href')).toBe(`/dashboard/linux/${VM1}`);
  });

  it('checks "VM erstellen" against what the pool has free and sends nothing beyond it', async () => {
    const calls = renderPage(detail, (c) => (c.method === 'POST' && c.url === `/api/vdcs/${ID}/vms`
      ? json({ ...detail.vmList[1]!, id: 'new', name: 'cache-1', status: 'provisioning' }, 201) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: /VM erstellen/ }));
    const dialog = await screen.findByRole('dialog', { name: 'VM erstellen' });
    expect(within(dialog).getByText('frei: 2')).toBeTruthy();
    expect(within(dialog).getByText('frei: 40 GB')).toBeTruthy();
    expect(within(dialog).getByText(/Öffentliche IPv4-Adresse zuweisen \(1 frei\)/)).toBeTruthy();
    expect((within(dialog).getByRole('checkbox', { name: /privaten Netzwerk/ }) as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByRole('radio', { name: /Eigenes ISO-Image/ }) as HTMLInputElement).disabled).toBe(true);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'cache-1' } });
    fireEvent.change(within(dialog).getByLabelText('vCPU (Kerne)'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Festplatte (GB)'), { target: { value: '50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'VM erstellen' }));
    expect(await within(dialog).findByText('vCPU: höchstens 2 Kerne (so viel ist im Pool frei).')).toBeTruthy();
    expect(within(dialog).getByText('Festplatte: höchstens 40 GB (so viel ist im Pool frei).')).toBeTruthy();
    expect(sent(calls, 'POST', `/api/vdcs/${ID}/vms`)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('vCPU (Kerne)'), { target: { value: '2' } });
    fireEvent.change(within(dialog).getByLabelText('Festplatte (GB)'), { target: { value: '40' } });
    fireEvent.change(within(dialog).getByLabelText('Distribution'), { target: { value: 'Ubuntu 24.04' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'VM erstellen' }));
    await waitFor(() => expect(sent(calls, 'POST', `/api/vdcs/${ID}/vms`)).toHaveLength(1));
    expect(jsonBody(sent(calls, 'POST', `/api/vdcs/${ID}/vms`)[0])).toEqual({ name: 'cache-1', cpuCores: 2, ramGb: 2, diskGb: 40, os: 'Ubuntu 24.04', publicIpv4: true, privateNetwork: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server\'s German refusal in the create dialog', async () => {
    renderPage(detail, (c) => (c.method === 'POST' && c.url.endsWith('/vms')
      ? json({ error: { code: 'POOL_EXHAUSTED', message: 'Im Pool fehlen 1 vCPU-Kern. Verkleinern Sie eine VM oder erweitern Sie den Pool.' } }, 409) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: /VM erstellen/ }));
    const dialog = await screen.findByRole('dialog', { name: 'VM erstellen' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'cache-1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'VM erstellen' }));
    expect(await within(dialog).findByText('Im Pool fehlen 1 vCPU-Kern. Verkleinern Sie eine VM oder erweitern Sie den Pool.')).toBeTruthy();
  });

  it('asks before deleting a VM and names what is freed, then deletes it', async () => {
    const calls = renderPage(detail, (c) => (c.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: 'web-1 löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'VM web-1 löschen?' });
    expect(dialog.textContent).toContain('Im Pool werden 4 Kerne, 8 GB RAM, 100 GB Speicher frei.');
    expect(dialog.textContent).toContain('Die IPv4-Adresse 203.0.113.10 bleibt in Ihrem Pool und ist danach frei.');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'VM löschen' }));
    await waitFor(() => expect(sent(calls, 'DELETE', `/api/vdcs/${ID}/vms/${VM1}`)).toHaveLength(1));
  });

  it('resizes within the free resources plus the VM\'s own, never shrinking the disk', async () => {
    const calls = renderPage(detail, (c) => (c.method === 'PATCH' ? json(detail.vmList[1]) : undefined));
    fireEvent.click(await screen.findByRole('button', { name: 'Größe von db-1 ändern' }));
    const dialog = await screen.findByRole('dialog', { name: 'Größe von db-1 ändern' });
    fireEvent.change(within(dialog).getByLabelText('vCPU (Kerne)'), { target: { value: '5' } });
    fireEvent.change(within(dialog).getByLabelText('Festplatte (GB)'), { target: { value: '50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Größe ändern' }));
    expect(await within(dialog).findByText('vCPU: höchstens 4 Kerne (frei im Pool und was die VM schon hat).')).toBeTruthy();
    expect(within(dialog).getByText('Festplatte: Die Festplatte kann nur wachsen (jetzt 60 GB).')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('vCPU (Kerne)'), { target: { value: '4' } });
    fireEvent.change(within(dialog).getByLabelText('Festplatte (GB)'), { target: { value: '100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Größe ändern' }));
    await waitFor(() => expect(sent(calls, 'PATCH', `/api/vdcs/${ID}/vms/${VM2}`)).toHaveLength(1));
    expect(jsonBody(sent(calls, 'PATCH', `/api/vdcs/${ID}/vms/${VM2}`)[0])).toEqual({ cpuCores: 4, ramGb: 4, diskGb: 100 });
  });

  it('sets up the private network with the contract\'s range check, and lets each VM join', async () => {
    const calls = renderPage(detail, (c) => (c.method === 'PUT' ? json({}) : undefined));
    const range = await screen.findByLabelText('Adressbereich (privat, CIDR)');
    expect(range.getAttribute('placeholder')).toBe('z. B. 10.20.0.0/24');
    fireEvent.change(range, { target: { value: '8.8.8.0/24' } });
    fireEvent.click(screen.getByRole('button', { name: 'Netzwerk einrichten' }));
    expect(await screen.findByText(/Bitte geben Sie ein privates Netz an/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(range, { target: { value: '10.20.0.0/24' } });
    fireEvent.click(screen.getByRole('button', { name: 'Netzwerk einrichten' }));
    await waitFor(() => expect(sent(calls, 'PUT', `/api/vdcs/${ID}/network`)).toHaveLength(1));
    expect(jsonBody(sent(calls, 'PUT', `/api/vdcs/${ID}/network`)[0])).toEqual({ cidr: '10.20.0.0/24' });
    cleanup();

    const active: VdcDetail = { ...detail, network: { cidr: '10.20.0.0/24', status: 'active' } };
    const calls2 = renderPage(active, (c) => (c.method === 'PUT' ? json({ vmId: VM2, privateAddress: '10.20.0.2' }) : undefined));
    fireEvent.click(await screen.findByRole('switch', { name: 'db-1 mit dem privaten Netzwerk verbinden' }));
    await waitFor(() => expect(sent(calls2, 'PUT', `/api/vdcs/${ID}/vms/${VM2}/network`)).toHaveLength(1));
    expect(jsonBody(sent(calls2, 'PUT', `/api/vdcs/${ID}/vms/${VM2}/network`)[0])).toEqual({ join: true });
  });

  it('gives a public IPv4 to a VM without one, or takes it back', async () => {
    const calls = renderPage(detail, (c) => (c.method === 'PUT' ? json({}) : undefined));
    const free = await screen.findByRole('combobox', { name: 'Zuweisung von 203.0.113.11' });
    // web-1 already has an address: only db-1 can take this one.
    expect([...(free as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['nicht zugewiesen', 'db-1']);
    fireEvent.change(free, { target: { value: VM2 } });
    await waitFor(() => expect(sent(calls, 'PUT', `/api/vdcs/${ID}/ips/8`)).toHaveLength(1));
    expect(jsonBody(sent(calls, 'PUT', `/api/vdcs/${ID}/ips/8`)[0])).toEqual({ serverId: VM2 });
    fireEvent.change(screen.getByRole('combobox', { name: 'Zuweisung von 203.0.113.10' }), { target: { value: '' } });
    await waitFor(() => expect(sent(calls, 'PUT', `/api/vdcs/${ID}/ips/7`)).toHaveLength(1));
    expect(jsonBody(sent(calls, 'PUT', `/api/vdcs/${ID}/ips/7`)[0])).toEqual({ serverId: null });
  });

  it('says when the pool is being set up, blocks changes and asks again until it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let answers = 0;
      renderPage({ ...detail, status: 'provisioning', vmList: [], ipv4List: [] }, (c) => {
        if (c.url !== `/api/vdcs/${ID}`) return undefined;
        answers += 1;
        return answers === 1 ? json({ ...detail, status: 'provisioning', vmList: [], ipv4List: [] }) : json(detail);
      });
      expect(await screen.findByText(/Ihr Virtual Data Center wird eingerichtet/)).toBeTruthy();
      expect((screen.getByRole('button', { name: /VM erstellen/ }) as HTMLButtonElement).disabled).toBe(true);
      expect(screen.queryByRole('link', { name: /Verlängern/ })).toBeNull();
      await vi.advanceTimersByTimeAsync(3_100);
      await waitFor(() => expect(screen.queryByText(/Ihr Virtual Data Center wird eingerichtet/)).toBeNull());
      expect((screen.getByRole('button', { name: /VM erstellen/ }) as HTMLButtonElement).disabled).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends an unknown or foreign VDC to the 404 page', async () => {
    renderPage(detail, (c) => (c.url === `/api/vdcs/${ID}` ? json({ error: { code: 'NOT_FOUND', message: 'Dieses Virtual Data Center wurde nicht gefunden.' } }, 404) : undefined));
    expect(await screen.findByText('Seite nicht gefunden')).toBeTruthy();
  });
});

describe('ISO library upload (issue 25)', () => {
  const iso: VdcIso = { id: ISO_ID, name: 'debian.iso', sizeBytes: 8 * MIB + 4096, receivedBytes: 0, status: 'uploading', statusMessage: null, attachedTo: [], createdAt: '2026-12-01T10:00:00.000Z' };
  const retryDelays = isoUploadSettings.retryDelaysMs;
  beforeEach(() => {
    setToken('token');
    isoUploadSettings.retryDelaysMs = [0, 0, 0];
  });
  afterEach(() => {
    cleanup();
    clearToken();
    vi.unstubAllGlobals();
    isoUploadSettings.retryDelaysMs = retryDelays;
  });

  const pick = (file: File) => fireEvent.change(screen.getByLabelText('ISO-Datei auswählen'), { target: { files: [file] } });
  /** An image with the ISO 9660 signature ("CD001" after the 32 KiB system area), optionally without it. */
  const isoFile = (signed = true) => {
    const bytes = new Uint8Array(iso.sizeBytes);
    if (signed) bytes.set([1, ...'CD001'.split('').map((c) => c.charCodeAt(0))], 16 * 2048);
    return new File([bytes], 'debian.iso', { type: 'application/octet-stream' });
  };

  it('refuses a file that is not an .iso, has no ISO 9660 signature or does not fit into the library, before sending anything', async () => {
    const calls = renderPage();
    await screen.findByRole('heading', { name: /ISO-Bibliothek/ });
    pick(new File(['x'], 'setup.exe'));
    expect(await screen.findByText('Bitte wählen Sie ein ISO-Image (Dateiendung .iso).')).toBeTruthy();
    pick(isoFile(false));
    expect(await screen.findByText('Die Datei ist kein ISO-9660-Image. Bitte wählen Sie ein ISO-Image.', {}, { timeout: SLOW })).toBeTruthy();
    cleanup();

    const calls2 = renderPage({ ...detail, isoLibrary: { used: 50 * GIB - MIB, total: 50 * GIB, unit: 'bytes' } });
    await screen.findByRole('heading', { name: /ISO-Bibliothek/ });
    pick(isoFile());
    expect(await screen.findByText(/in Ihrer ISO-Bibliothek sind noch 1 MB frei/, {}, { timeout: SLOW })).toBeTruthy();
    expect([...calls, ...calls2].some((c) => c.method !== 'GET')).toBe(false);
  });

  it('sends the image in 8 MiB chunks with their offsets, retries a failed chunk, pauses, and resumes from the server\'s offset', async () => {
    let failuresLeft = 4;
    const calls = renderPage(detail, (c) => {
      if (c.method === 'POST' && c.url === `/api/vdcs/${ID}/isos`) return json(iso, 201);
      if (c.method === 'HEAD') return new Response(null, { status: 200, headers: { 'Upload-Offset': String(8 * MIB) } });
      if (c.method === 'PUT' && c.url === `/api/vdcs/${ID}/isos/${ISO_ID}/content`) {
        const offset = Number(c.headers['upload-offset']);
        const size = (c.body as Blob).size;
        if (offset === 8 * MIB && failuresLeft > 0) {
          failuresLeft -= 1;
          return json({ error: { code: 'UNAVAILABLE', message: 'Der Speicher ist gerade nicht erreichbar.' } }, 503);
        }
        return json({ ...iso, receivedBytes: offset + size }, 200);
      }
      return undefined;
    });
    await screen.findByRole('heading', { name: /ISO-Bibliothek/ });
    pick(isoFile());

    // First chunk through, the second fails four times (one try and three retries): the upload pauses.
    const resume = await screen.findByRole('button', { name: 'Fortsetzen' }, { timeout: SLOW });
    expect(jsonBody(sent(calls, 'POST', `/api/vdcs/${ID}/isos`)[0])).toEqual({ name: 'debian.iso', sizeBytes: 8 * MIB + 4096 });
    const puts = () => sent(calls, 'PUT', `/api/vdcs/${ID}/isos/${ISO_ID}/content`);
    expect(puts().map((c) => [c.headers['upload-offset'], (c.body as Blob).size, c.headers['content-type']])).toEqual([
      ['0', 8 * MIB, 'application/octet-stream'],
      ...Array.from({ length: 4 }, () => [String(8 * MIB), 4096, 'application/octet-stream']),
    ]);
    const bar = screen.getByRole('progressbar', { name: 'Upload von debian.iso' });
    expect(bar.getAttribute('aria-valuenow')).toBe('99');
    expect(screen.getByText(/Die Verbindung ist unterbrochen/)).toBeTruthy();

    fireEvent.click(resume);
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Upload von debian.iso' })).toBeNull(), { timeout: SLOW });
    expect(sent(calls, 'HEAD', `/api/vdcs/${ID}/isos/${ISO_ID}`)).toHaveLength(1);
    expect(puts().at(-1)!.headers['upload-offset']).toBe(String(8 * MIB));
    expect(puts()).toHaveLength(6);
  });

  it('goes on from the offset a 409 names (a chunk arrived whose answer was lost)', async () => {
    const calls = renderPage(detail, (c) => {
      if (c.method === 'POST') return json(iso, 201);
      if (c.method === 'PUT' && c.headers['upload-offset'] === '0') return json({ error: { code: 'UPLOAD_OFFSET', message: 'Der Server hat bereits mehr Daten.' }, offset: 8 * MIB }, 409);
      if (c.method === 'PUT') return json({ ...iso, receivedBytes: iso.sizeBytes });
      return undefined;
    });
    await screen.findByRole('heading', { name: /ISO-Bibliothek/ });
    pick(isoFile());
    await waitFor(() => expect(sent(calls, 'PUT', `/api/vdcs/${ID}/isos/${ISO_ID}/content`).map((c) => c.headers['upload-offset'])).toEqual(['0', String(8 * MIB)]), { timeout: SLOW });
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Upload von debian.iso' })).toBeNull(), { timeout: SLOW });
  });

  it('stops at a refusal with the server\'s message (not an ISO 9660 image)', async () => {
    renderPage(detail, (c) => {
      if (c.method === 'POST') return json(iso, 201);
      if (c.method === 'PUT') return json({ error: { code: 'ISO_INVALID', message: 'Die Datei ist kein ISO-9660-Image.' } }, 422);
      return undefined;
    });
    await screen.findByRole('heading', { name: /ISO-Bibliothek/ });
    pick(isoFile());
    expect(await screen.findByText('Die Datei ist kein ISO-9660-Image.', {}, { timeout: SLOW })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Fortsetzen' })).toBeNull();
  });

  it('lists the images; one in a drive cannot be deleted, another asks first', async () => {
    const ready: VdcIso = { ...iso, id: 'i-ready', name: 'alpine.iso', sizeBytes: 200 * MIB, receivedBytes: 200 * MIB, status: 'ready', attachedTo: [VM1] };
    const spare: VdcIso = { ...ready, id: 'i-spare', name: 'tools.iso', attachedTo: [] };
    const calls = renderPage({ ...detail, isos: [ready, spare] }, (c) => (c.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    const table = await screen.findByRole('table', { name: 'ISO-Images' });
    const attached = within(table).getByRole('rowheader', { name: 'alpine.iso' }).closest('tr')!;
    expect(attached.textContent).toContain('web-1');
    expect((within(attached).getByRole('button', { name: 'alpine.iso löschen' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'tools.iso löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'tools.iso löschen?' });
    expect(dialog.textContent).toContain('200 MB werden dort frei');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(sent(calls, 'DELETE', `/api/vdcs/${ID}/isos/i-spare`)).toHaveLength(1));
  });
});

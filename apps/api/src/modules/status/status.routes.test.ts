import { describe, expect, it } from 'vitest';
import { deriveOverallStatus, messages, StatusPageData, type StatusIncident, type StatusMaintenance, type StatusService } from '@hp/contract';
import { createUser, describeEachDatabase, uniqueName, type TestContext } from '../../../test/harness.ts';
import { seedStatusPage } from './status.seed.ts';

describe('deriveOverallStatus', () => {
  it('lets any major outage win, then any partial outage, else operational', () => {
    expect(deriveOverallStatus([])).toBe('operational');
    expect(deriveOverallStatus([{ status: 'operational' }, { status: 'operational' }])).toBe('operational');
    expect(deriveOverallStatus([{ status: 'operational' }, { status: 'partial_outage' }])).toBe('partial_outage');
    expect(deriveOverallStatus([{ status: 'partial_outage' }, { status: 'major_outage' }, { status: 'operational' }])).toBe('major_outage');
  });
});

describeEachDatabase('status page', (ctx) => {
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers?: Record<string, string>, payload?: unknown) =>
    ctx().app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const staff = async (c: TestContext) => (await createUser(c, { role: 'employee' })).auth;
  const page = async () => {
    const res = await inject('GET', '/api/status');
    expect(res.statusCode).toBe(200);
    return StatusPageData.parse(res.json());
  };
  const addService = async (auth: Record<string, string>, name = uniqueName('Dienst ')) => {
    const res = await inject('POST', '/api/status/services', auth, { name });
    expect(res.statusCode).toBe(201);
    return res.json() as StatusService;
  };
  const startDate = '2030-05-10T20:00:00.000Z';

  it('serves the seeded sample data to anonymous visitors and seeds only once', async () => {
    const { database } = ctx();
    await seedStatusPage(database.db, new Date('2030-01-01T12:00:00Z'));
    await seedStatusPage(database.db);
    const data = await page();
    expect(data.services.map((s) => s.name).slice(0, 6)).toEqual(['Server Hosting', 'Webserver', 'Cloud Storage', 'Datenbank', 'E-Mail Service', 'DNS']);
    expect(data.overallStatus).toBe('operational');
    const sample = data.incidents.find((i) => i.title === 'Erhöhte Antwortzeiten beim Cloud Storage')!;
    expect(sample.status).toBe('resolved');
    expect(sample.date.startsWith('2025-04')).toBe(true);
    expect(sample.updates.map((u) => u.status)).toEqual(['resolved', 'identified', 'investigating']);
    expect(data.maintenances.map((m) => m.status).sort()).toEqual(['completed', 'scheduled']);
    expect(data.maintenances.find((m) => m.status === 'scheduled')!.startDate).toBe('2030-01-15T00:00:00.000Z');
  });

  it('derives the overall status from the services: partial, then major', async () => {
    const auth = await staff(ctx());
    const a = await addService(auth);
    const b = await addService(auth);

    expect((await inject('PATCH', `/api/status/services/${a.id}`, auth, { status: 'partial_outage' })).statusCode).toBe(200);
    expect((await page()).overallStatus).toBe('partial_outage');

    expect((await inject('PATCH', `/api/status/services/${b.id}`, auth, { status: 'major_outage' })).statusCode).toBe(200);
    expect((await page()).overallStatus).toBe('major_outage');

    await inject('PATCH', `/api/status/services/${b.id}`, auth, { status: 'operational' });
    await inject('PATCH', `/api/status/services/${a.id}`, auth, { status: 'operational' });
    expect((await page()).overallStatus).toBe('operational');
  });

  describe('write routes', () => {
    const writeRoutes: [method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown][] = [
      ['POST', '/api/status/services', { name: 'Fremder Dienst' }],
      ['PATCH', '/api/status/services/1', { status: 'major_outage' }],
      ['DELETE', '/api/status/services/1'],
      ['POST', '/api/status/incidents', { title: 'Fremde Störung', severity: 'critical', status: 'investigating' }],
      ['POST', '/api/status/incidents/1/updates', { status: 'resolved', message: 'Fremd' }],
      ['DELETE', '/api/status/incidents/1'],
      ['POST', '/api/status/maintenances', { title: 'Fremde Wartung', description: 'x', startDate }],
      ['PATCH', '/api/status/maintenances/1', { status: 'completed' }],
      ['DELETE', '/api/status/maintenances/1'],
    ];

    it('refuses anonymous visitors (401) and customers (403) on every write route and changes nothing', async () => {
      await seedStatusPage(ctx().database.db);
      const before = await page();
      const customer = (await createUser(ctx(), { role: 'customer' })).auth;
      for (const [method, url, body] of writeRoutes) {
        const anonymous = await inject(method, url, undefined, body);
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(anonymous.json().error.message).toBe(messages.unauthorized);
        const asCustomer = await inject(method, url, customer, body);
        expect(asCustomer.statusCode, `${method} ${url}`).toBe(403);
        expect(asCustomer.json().error.message).toBe(messages.forbidden);
      }
      expect(await page()).toEqual(before);
    });

    it('declares an access policy on every status route', () => {
      const routes = ctx().app.registeredRoutes.filter((r) => r.url.startsWith('/api/status'));
      expect(routes.length).toBe(10);
      for (const route of routes) expect(route.access, `${route.method} ${route.url}`).toBe(route.method === 'GET' ? 'public' : 'staff');
    });
  });

  for (const role of ['employee', 'owner'] as const) {
    it(`lets an ${role} create, rename, set and delete a service`, async () => {
      const { auth } = await createUser(ctx(), { role });
      const service = await addService(auth, uniqueName('Backup '));
      expect(service.status).toBe('operational');

      const renamed = await inject('PATCH', `/api/status/services/${service.id}`, auth, { name: `${service.name} Plus`, status: 'partial_outage' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toEqual({ id: service.id, name: `${service.name} Plus`, status: 'partial_outage' });
      expect((await page()).services.find((s) => s.id === service.id)).toMatchObject({ status: 'partial_outage' });

      expect((await inject('DELETE', `/api/status/services/${service.id}`, auth)).statusCode).toBe(204);
      expect((await page()).services.some((s) => s.id === service.id)).toBe(false);
    });

    it(`lets an ${role} report an incident, add updates that set its status, and delete it`, async () => {
      const { auth } = await createUser(ctx(), { role });
      const created = await inject('POST', '/api/status/incidents', auth, { title: 'Webserver nicht erreichbar', severity: 'critical', status: 'investigating', message: 'Wir prüfen die Erreichbarkeit.' });
      expect(created.statusCode).toBe(201);
      const incident = created.json() as StatusIncident;
      expect(incident).toMatchObject({ title: 'Webserver nicht erreichbar', severity: 'critical', status: 'investigating' });
      expect(incident.updates).toHaveLength(1);
      expect(incident.updates[0]).toMatchObject({ status: 'investigating', message: 'Wir prüfen die Erreichbarkeit.' });

      const identified = await inject('POST', `/api/status/incidents/${incident.id}/updates`, auth, { status: 'identified', message: 'Ein Netzteil ist ausgefallen.' });
      expect(identified.statusCode).toBe(201);
      expect(identified.json().status).toBe('identified');

      const resolved = await inject('POST', `/api/status/incidents/${incident.id}/updates`, auth, { status: 'resolved', message: '  Behoben.  ' });
      expect(resolved.statusCode).toBe(201);
      const listed = (await page()).incidents.find((i) => i.id === incident.id)!;
      expect(listed.status).toBe('resolved');
      // Newest first.
      expect(listed.updates.map((u) => u.message)).toEqual(['Behoben.', 'Ein Netzteil ist ausgefallen.', 'Wir prüfen die Erreichbarkeit.']);

      expect((await inject('DELETE', `/api/status/incidents/${incident.id}`, auth)).statusCode).toBe(204);
      expect((await page()).incidents.some((i) => i.id === incident.id)).toBe(false);
    });

    it(`lets an ${role} plan a maintenance, change its status and delete it`, async () => {
      const { auth } = await createUser(ctx(), { role });
      const service = await addService(auth);
      const created = await inject('POST', '/api/status/maintenances', auth, {
        title: 'Kernel-Update', description: 'Neustart der Hosts nacheinander.', startDate, affectedServices: [service.name.toUpperCase(), service.name],
      });
      expect(created.statusCode).toBe(201);
      const maintenance = created.json() as StatusMaintenance;
      // The end defaults to start + 1 hour; names are stored as the service spells them, once.
      expect(maintenance).toMatchObject({ status: 'scheduled', startDate, endDate: '2030-05-10T21:00:00.000Z', affectedServices: [service.name] });

      const running = await inject('PATCH', `/api/status/maintenances/${maintenance.id}`, auth, { status: 'in_progress' });
      expect(running.statusCode).toBe(200);
      expect(running.json()).toMatchObject({ status: 'in_progress', title: 'Kernel-Update', endDate: '2030-05-10T21:00:00.000Z' });
      expect((await page()).maintenances.find((m) => m.id === maintenance.id)?.status).toBe('in_progress');

      expect((await inject('DELETE', `/api/status/maintenances/${maintenance.id}`, auth)).statusCode).toBe(204);
      expect((await page()).maintenances.some((m) => m.id === maintenance.id)).toBe(false);
    });
  }

  describe('validation', () => {
    const expectError = (res: { statusCode: number; headers: Record<string, unknown>; json: () => { error: { message: string } } }, status: number, message: string) => {
      expect(res.statusCode).toBe(status);
      expect(String(res.headers['content-type'])).toContain('application/json');
      expect(res.json().error.message).toBe(message);
    };

    it('requires an incident title and an update message', async () => {
      const auth = await staff(ctx());
      expectError(await inject('POST', '/api/status/incidents', auth, { title: '   ', severity: 'minor', status: 'investigating' }), 400, messages.incidentTitleRequired);
      expectError(await inject('POST', '/api/status/incidents', auth, { severity: 'minor' }), 400, messages.incidentTitleRequired);
      const incident = (await inject('POST', '/api/status/incidents', auth, { title: 'Mail-Verzögerung' })).json() as StatusIncident;
      expect(incident).toMatchObject({ severity: 'minor', status: 'investigating', updates: [] });
      expectError(await inject('POST', `/api/status/incidents/${incident.id}/updates`, auth, { status: 'monitoring', message: '' }), 400, messages.updateMessageRequired);
      expect((await page()).incidents.find((i) => i.id === incident.id)?.status).toBe('investigating');
    });

    it('requires a maintenance title and description and an end after the start', async () => {
      const auth = await staff(ctx());
      const valid = { title: 'Router-Tausch', description: 'Austausch der Core-Router.', startDate };
      expectError(await inject('POST', '/api/status/maintenances', auth, { ...valid, title: '' }), 400, messages.maintenanceTitleRequired);
      expectError(await inject('POST', '/api/status/maintenances', auth, { ...valid, description: ' ' }), 400, messages.maintenanceDescriptionRequired);
      expectError(await inject('POST', '/api/status/maintenances', auth, { ...valid, endDate: '2030-05-10T19:00:00.000Z' }), 400, messages.maintenanceEndBeforeStart);
      expectError(await inject('POST', '/api/status/maintenances', auth, { ...valid, endDate: startDate }), 400, messages.maintenanceEndBeforeStart);
      expectError(await inject('POST', '/api/status/maintenances', auth, { ...valid, affectedServices: ['Gibt es nicht'] }), 400, 'Bitte wählen Sie nur vorhandene Dienste aus.');

      const created = (await inject('POST', '/api/status/maintenances', auth, valid)).json() as StatusMaintenance;
      expectError(await inject('PATCH', `/api/status/maintenances/${created.id}`, auth, { endDate: '2030-05-10T18:00:00.000Z' }), 400, messages.maintenanceEndBeforeStart);
      expect((await page()).maintenances.find((m) => m.id === created.id)?.endDate).toBe('2030-05-10T21:00:00.000Z');
    });

    it('refuses unknown keys, unknown enum values, bad dates and over-long texts', async () => {
      const auth = await staff(ctx());
      expectError(await inject('POST', '/api/status/services', auth, { name: 'Monitoring', status: 'operational' }), 400, messages.invalidInput);
      expectError(await inject('POST', '/api/status/incidents', auth, { title: 'X', id: 99 }), 400, messages.invalidInput);
      expectError(await inject('POST', '/api/status/incidents', auth, { title: 'X', severity: 'apocalyptic' }), 400, 'Bitte wählen Sie einen gültigen Schweregrad.');
      expectError(await inject('POST', '/api/status/incidents', auth, { title: 'x'.repeat(201) }), 400, 'Bitte kürzen Sie den Text auf höchstens 200 Zeichen.');
      // Dates outside 2000..2999 would not survive the trip through PostgreSQL and back.
      for (const bad of ['morgen', '2030-05-10', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:30:00Z']) {
        expectError(await inject('POST', '/api/status/maintenances', auth, { title: 'T', description: 'D', startDate: bad }), 400, 'Bitte geben Sie ein gültiges Datum mit Uhrzeit an.');
      }
      expectError(await inject('POST', '/api/status/services', auth, { name: '' }), 400, messages.serviceNameRequired);
      const service = await addService(auth);
      expectError(await inject('PATCH', `/api/status/services/${service.id}`, auth, {}), 400, 'Bitte geben Sie mindestens eine Änderung an.');
      expectError(await inject('PATCH', `/api/status/services/${service.id}`, auth, { status: 'kaputt' }), 400, 'Bitte wählen Sie einen gültigen Status.');
      expectError(await inject('POST', '/api/status/services', auth, { name: service.name.toLowerCase() }), 409, 'Ein Dienst mit diesem Namen existiert bereits.');
      expectError(await inject('PATCH', '/api/status/services/abc', auth, { status: 'operational' }), 400, messages.invalidInput);
    });

    it('answers 404 for unknown ids', async () => {
      const auth = await staff(ctx());
      const missing = 2_000_000_000;
      expectError(await inject('PATCH', `/api/status/services/${missing}`, auth, { status: 'operational' }), 404, messages.notFound);
      expectError(await inject('DELETE', `/api/status/services/${missing}`, auth), 404, messages.notFound);
      expectError(await inject('POST', `/api/status/incidents/${missing}/updates`, auth, { status: 'resolved', message: 'Erledigt' }), 404, messages.notFound);
      expectError(await inject('DELETE', `/api/status/incidents/${missing}`, auth), 404, messages.notFound);
      expectError(await inject('PATCH', `/api/status/maintenances/${missing}`, auth, { status: 'completed' }), 404, messages.notFound);
      expectError(await inject('DELETE', `/api/status/maintenances/${missing}`, auth), 404, messages.notFound);
    });
  });
});

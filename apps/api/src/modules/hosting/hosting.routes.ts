import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddDomainInput, ApiError, AppToolInput, PluginStateInput, BackupDownloadResult, BackupScheduleInput, CheckoutResponse, CreateDatabaseInput, CreateDatabaseUserInput, HostingBackups, HostingCheckoutInput,
  HostingDatabases, HostingDatabaseUserView, HostingDatabaseView, HostingDetail, HostingDomainView, HostingIdParams, HostingItemParams, HostingList, HostingPasswordInput, HostingServerInput,
  HostingServerList, HostingServerView, HostingShopInfo, InstallAppInput, MessageResult, PhpSettingsInput, ShareInput, ShareResult,
} from '@hp/contract';
import { signedInRoutes, type RequestUser } from '../../http/auth.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { placeOrder } from '../shop/shop.service.ts';
import { hostingProduct } from './hosting.product.ts';
import * as hosting from './hosting.service.ts';
import { createHostingServer, deleteHostingServer, getHostingShopInfo, listHostingServers } from './hosting-servers.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };
const security = [{ bearer: [] }];
const ShareParams = HostingIdParams.extend({ username: z.string().min(1).max(64) });
const ShareList = z.object({ items: z.array(ShareResult) });
const HostingServerParams = z.object({ id: z.coerce.number({ error: 'Hosting-Server nicht gefunden.' }).int().positive() });

/** Panel writes per customer: a burst from one account cannot flood the hosting panel. */
const WRITE_LIMIT = { limit: 60, windowSeconds: 600 };

/** Web hosting: the shop's checkout, the customer's package page, and staff's hosting servers (decision 022). */
export async function hostingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const customer = { config: { access: 'customer' as const } };
  const doc = (summary: string) => ({ tags: ['hosting'], summary, security });
  const limited = (user: RequestUser) => enforceLimit(deps.db, { key: `hosting-write:${user.id}`, ...WRITE_LIMIT });

  // ── Shop ──
  r.get('/api/shop/webhosting', { config: { access: 'public' }, schema: { tags: ['shop'], summary: 'Webhosting-Shop: Subdomain-Basis und ob ein Platz frei ist', response: { 200: HostingShopInfo } } },
    async () => getHostingShopInfo(deps, null));
  u.get('/api/shop/webhosting/renewal/:id', { ...customer, schema: { ...doc('Vorbelegung für die Verlängerung eines eigenen Pakets'), tags: ['shop'], params: HostingIdParams, response: { 200: HostingShopInfo, ...errors } } },
    async (req) => getHostingShopInfo(deps, req.user, req.params.id));
  u.post('/api/shop/webhosting/checkout', { ...customer, schema: { ...doc('Webhosting bestellen oder verlängern und Zahlung starten (Preis berechnet der Server)'), tags: ['shop'], body: HostingCheckoutInput, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await placeOrder(deps, req.user, hostingProduct, req.body)));

  // ── Package page ──
  u.get('/api/hosting', { ...customer, schema: { ...doc('Eigene und geteilte Hosting-Pakete'), response: { 200: HostingList, ...errors } } },
    async (req) => hosting.listPackages(deps, req.user));
  u.get('/api/hosting/:id', { ...customer, schema: { ...doc('Hosting-Paket mit dem Stand im Panel (Polling während Änderungen laufen)'), params: HostingIdParams, response: { 200: HostingDetail, ...errors } } },
    async (req) => hosting.getPackageDetail(deps, req.user, req.params.id));
  u.put('/api/hosting/:id/php', { ...customer, schema: { ...doc('PHP-Version, Memory-Limit, Max. Ausführungszeit'), params: HostingIdParams, body: PhpSettingsInput, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.setPhpSettings(deps, req.user, req.params.id, req.body); });
  u.post('/api/hosting/:id/domains', { ...customer, schema: { ...doc('Zusatzdomain hinzufügen (eigenes Verzeichnis)'), params: HostingIdParams, body: AddDomainInput, response: { 201: HostingDomainView, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(201).send(await hosting.addDomain(deps, req.user, req.params.id, req.body)); });
  u.delete('/api/hosting/:id/domains/:itemId', { ...customer, schema: { ...doc('Zusatzdomain entfernen'), params: HostingItemParams, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.deleteDomain(deps, req.user, req.params.id, req.params.itemId); });
  u.post('/api/hosting/:id/domains/:itemId/ssl', { ...customer, schema: { ...doc("Let's-Encrypt-Zertifikat anfordern (wird asynchron ausgestellt)"), params: HostingItemParams, response: { 202: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(202).send(await hosting.requestSsl(deps, req.user, req.params.id, req.params.itemId)); });

  u.get('/api/hosting/:id/databases', { ...customer, schema: { ...doc('MySQL-Datenbanken und -Benutzer'), params: HostingIdParams, response: { 200: HostingDatabases, ...errors } } },
    async (req) => hosting.listDatabases(deps, req.user, req.params.id));
  u.post('/api/hosting/:id/databases', { ...customer, schema: { ...doc('Datenbank anlegen: für einen vorhandenen Benutzer (userId) oder mit neuem gleichnamigem Benutzer'), params: HostingIdParams, body: CreateDatabaseInput, response: { 201: HostingDatabaseView, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(201).send(await hosting.createDatabase(deps, req.user, req.params.id, req.body)); });
  u.delete('/api/hosting/:id/databases/:itemId', { ...customer, schema: { ...doc('Datenbank löschen'), params: HostingItemParams, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.deleteDatabase(deps, req.user, req.params.id, req.params.itemId); });
  u.put('/api/hosting/:id/database-users/:itemId/password', { ...customer, schema: { ...doc('Passwort eines Datenbank-Benutzers ändern'), params: HostingItemParams, body: HostingPasswordInput, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.setDatabasePassword(deps, req.user, req.params.id, req.params.itemId, req.body.password); });
  // ── Database users without a database (Datenbanken: "Benutzer erstellen") ──
  u.post('/api/hosting/:id/database-users', { ...customer, schema: { ...doc('Datenbank-Benutzer ohne Datenbank anlegen (Name mit Paket-Präfix)'), params: HostingIdParams, body: CreateDatabaseUserInput, response: { 201: HostingDatabaseUserView, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(201).send(await hosting.createDatabaseUser(deps, req.user, req.params.id, req.body)); });
  u.delete('/api/hosting/:id/database-users/:itemId', { ...customer, schema: { ...doc('Datenbank-Benutzer löschen (nur ohne Datenbank)'), params: HostingItemParams, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.deleteDatabaseUser(deps, req.user, req.params.id, req.params.itemId); });

  u.put('/api/hosting/:id/ftp-password', { ...customer, schema: { ...doc('FTP-Passwort ändern'), params: HostingIdParams, body: HostingPasswordInput, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.setFtpPassword(deps, req.user, req.params.id, req.body.password); });

  u.put('/api/hosting/:id/panel-password', { ...customer, schema: { ...doc('Passwort der Anmeldung am Hosting-Panel setzen'), params: HostingIdParams, body: HostingPasswordInput, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.setPanelPassword(deps, req.user, req.params.id, req.body.password); });

  u.get('/api/hosting/:id/backups', { ...customer, schema: { ...doc('Backups und laufende Wiederherstellung'), params: HostingIdParams, response: { 200: HostingBackups, ...errors } } },
    async (req) => hosting.listBackups(deps, req.user, req.params.id));
  u.post('/api/hosting/:id/backups', { ...customer, schema: { ...doc('Backup jetzt erstellen (nur wo das Panel es anbietet)'), params: HostingIdParams, response: { 201: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(201).send(await hosting.backupNow(deps, req.user, req.params.id)); });
  u.post('/api/hosting/:id/backups/:itemId/restore', { ...customer, schema: { ...doc('Backup wiederherstellen (ersetzt den aktuellen Stand)'), params: HostingItemParams, response: { 202: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(202).send(await hosting.restoreBackup(deps, req.user, req.params.id, req.params.itemId)); });
  u.post('/api/hosting/:id/backups/:itemId/download', { ...customer, schema: { ...doc('Backup bereitstellen (ISPConfig: in den backup-Ordner des FTP-Zugangs)'), params: HostingItemParams, response: { 200: BackupDownloadResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.downloadBackup(deps, req.user, req.params.id, req.params.itemId); });
  u.put('/api/hosting/:id/backup-schedule', { ...customer, schema: { ...doc('Automatische Backups und Aufbewahrung (als Anzahl Kopien)'), params: HostingIdParams, body: BackupScheduleInput, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.setBackupSchedule(deps, req.user, req.params.id, req.body); });

  u.post('/api/hosting/:id/app', { ...customer, schema: { ...doc('WordPress oder Joomla mit einem Klick installieren (wo das Panel es kann)'), params: HostingIdParams, body: InstallAppInput, response: { 202: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(202).send(await hosting.installApp(deps, req.user, req.params.id, req.body.kind)); });
  u.post('/api/hosting/:id/app/update', { ...customer, schema: { ...doc('WordPress bzw. Joomla selbst aktualisieren (ohne Plugins und Themes)'), params: HostingIdParams, response: { 202: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(202).send(await hosting.updateApp(deps, req.user, req.params.id)); });

  // ── Application tools, plugins, themes (Website tab) ──
  u.post('/api/hosting/:id/app/tools', { ...customer, schema: { ...doc('Sicherheits-Check, Datenbank optimieren oder alles aktualisieren (läuft im Hintergrund)'), params: HostingIdParams, body: AppToolInput, response: { 202: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(202).send(await hosting.runAppTool(deps, req.user, req.params.id, req.body.tool)); });
  u.post('/api/hosting/:id/app/plugins/:itemId/update', { ...customer, schema: { ...doc('Ein Plugin aktualisieren (läuft im Hintergrund)'), params: HostingItemParams, response: { 202: MessageResult, ...errors } } },
    async (req, reply) => { await limited(req.user); return reply.code(202).send(await hosting.updatePlugin(deps, req.user, req.params.id, req.params.itemId)); });
  u.put('/api/hosting/:id/app/plugins/:itemId', { ...customer, schema: { ...doc('Ein Plugin aktivieren oder deaktivieren'), params: HostingItemParams, body: PluginStateInput, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.setPluginActive(deps, req.user, req.params.id, req.params.itemId, req.body.active); });
  u.post('/api/hosting/:id/app/themes/:itemId/activate', { ...customer, schema: { ...doc('Ein Theme (Joomla: Template) aktivieren'), params: HostingItemParams, response: { 200: MessageResult, ...errors } } },
    async (req) => { await limited(req.user); return hosting.activateTheme(deps, req.user, req.params.id, req.params.itemId); });

  u.get('/api/hosting/:id/access', { ...customer, schema: { ...doc('Freigaben (nur Inhaber)'), params: HostingIdParams, response: { 200: ShareList, ...errors } } },
    async (req) => hosting.listShares(deps, req.user, req.params.id));
  u.post('/api/hosting/:id/access', { ...customer, schema: { ...doc('Paket mit einem Benutzer teilen (nur Inhaber)'), params: HostingIdParams, body: ShareInput, response: { 201: ShareResult, ...errors } } },
    async (req, reply) => reply.code(201).send(await hosting.sharePackage(deps, req.user, req.params.id, req.body.username)));
  u.delete('/api/hosting/:id/access/:username', { ...customer, schema: { ...doc('Freigabe entfernen (nur Inhaber)'), params: ShareParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => { await hosting.unsharePackage(deps, req.user, req.params.id, req.params.username); return reply.code(204).send(null); });

  // ── Staff: hosting servers ──
  const staff = { config: { access: 'staff' as const } };
  u.get('/api/admin/hosting-servers', { ...staff, schema: { ...doc('Hosting-Server mit Plätzen (belegt, reserviert)'), response: { 200: HostingServerList, ...errors } } },
    async () => listHostingServers(deps));
  u.post('/api/admin/hosting-servers', { ...staff, schema: { ...doc('Hosting-Server eintragen'), body: HostingServerInput, response: { 201: HostingServerView, ...errors } } },
    async (req, reply) => reply.code(201).send(await createHostingServer(deps, req.body)));
  u.delete('/api/admin/hosting-servers/:id', { ...staff, schema: { ...doc('Leeren Hosting-Server entfernen'), params: HostingServerParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => { await deleteHostingServer(deps, req.params.id); return reply.code(204).send(null); });
}

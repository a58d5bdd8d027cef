import type { FastifyInstance, FastifyReply } from 'fastify';
import { simulatedPanelPath } from '../../drivers/hosting/index.ts';
import { cspNonceOf } from '../../http/security-headers.ts';

/**
 * Where the simulated panel's buttons ("ISPConfig"/panel login, phpMyAdmin) lead in the demo: a plain
 * page that says what the button opens with a real panel, instead of a link into nowhere. Registered
 * only while the simulated panel is in use.
 */

function page(nonce: string, title: string, body: string) {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style nonce="${nonce}">body{margin:0;font-family:system-ui,sans-serif;background:#f6f9fc;color:#1a1f36}main{max-width:560px;margin:10vh auto;padding:32px;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001}h1{font-size:1.4rem}.badge{display:inline-block;font-size:12px;background:#f5c542;border-radius:4px;padding:2px 6px;font-weight:700}p{line-height:1.55}</style>
</head><body><main><span class="badge">Demo</span><h1>${title}</h1>${body}</main></body></html>`;
}

export async function simulatedPanelRoutes(app: FastifyInstance) {
  if (app.deps.hosting.kind !== 'simulated') return;
  const send = (reply: FastifyReply, title: string, body: string) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page(cspNonceOf(reply), title, body));

  app.get(simulatedPanelPath, { config: { access: 'public', cspNonces: true }, schema: { hide: true } }, async (_req, reply) =>
    send(reply, 'Hosting-Panel (simuliert)', '<p>Im Demobetrieb läuft kein echtes Hosting-Panel. Mit <code>HOSTING=ispconfig</code> öffnet dieser Knopf die Anmeldung Ihres ISPConfig-Panels, in der Sie Ihre Website auch direkt verwalten können.</p><p>Alle Funktionen des Hosting-Pakets stehen Ihnen im Kundenportal zur Verfügung.</p>'));
  app.get(`${simulatedPanelPath}/phpmyadmin`, { config: { access: 'public', cspNonces: true }, schema: { hide: true } }, async (_req, reply) =>
    send(reply, 'phpMyAdmin (simuliert)', '<p>Im Demobetrieb gibt es keinen echten Datenbankserver. Mit einem echten Panel öffnet dieser Link phpMyAdmin; Sie melden sich dort mit dem Namen und dem Passwort eines Datenbank-Benutzers an.</p>'));
}

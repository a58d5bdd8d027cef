import { z } from 'zod';
import { messages } from './messages.ts';
import { coded } from './codes.ts';
import { PASSWORD_MAX, PASSWORD_MIN, passwordMeetsRules, registrationPasswordRules } from './password.ts';
import { ServerStatus } from './servers.ts';

/**
 * Installation and Einstellungen tabs of the server detail page and the reinstall dialog
 * (portal spec §2 server detail, §3 software catalogue, §4/§5 rules, §8 texts, §9 OS list).
 */

// ── Texts (§8 where quoted: the spec's wording, spelling and grammar corrected) ─────────────────────
export const softwareMessages = {
  /** §8 */ failed: 'Bei der Installation/Deinstallation ist ein Fehler aufgetreten.',
  /** §8 */ installFailed: 'Fehler bei der Installation',
  /** §8 */ installed: (name: string) => `Das Programm ${name} wurde installiert.`,
  uninstalled: (name: string) => `Das Programm ${name} wurde deinstalliert.`,
  /** §8 */ empty: 'Keine Software gefunden. Bitte ändern Sie Ihre Suchkriterien.',
  /** §5 */ missingPackage: 'Fehlende Paketinformationen.',
  /** §5: MySQL and MongoDB credentials are used once and not stored. */
  credentialsNotStored: 'Bitte notieren Sie sich die Zugangsdaten: Sie werden nicht gespeichert und können später nicht angezeigt werden.',
  mysqlPasswordRequired: 'Bitte geben Sie ein Passwort für den MySQL-Benutzer root ein.',
  mongoUsernameRequired: 'Bitte geben Sie einen Benutzernamen für MongoDB ein.',
  mongoUsernameInvalid: 'Der Benutzername für MongoDB darf nur Buchstaben, Ziffern, Punkt, Unterstrich und Bindestrich enthalten (höchstens 64 Zeichen).',
  dbPasswordLength: 'Das Passwort muss zwischen 8 und 64 Zeichen lang sein.',
  needsOnline: 'Bitte starten Sie den Server, bevor Sie Software installieren oder entfernen.',
  installing: (name: string) => `${name} wird installiert …`,
  uninstalling: (name: string) => `${name} wird entfernt …`,
} as const;

export const serverSettingsMessages = {
  /** §5 / §8 */ reinstallMismatch: 'Die Passwörter stimmen nicht überein. Bitte prüfen Sie Ihre Eingaben.',
  /** §8 */ reinstallFailed: 'Fehler beim Neuinstallieren Ihres Systems. Bitte wenden Sie sich an den Support!',
  /** §8 */ reinstallDone: 'Ihr Server wurde neu installiert.',
  reinstallStarted: 'Die Neuinstallation wurde gestartet. Alle Daten auf dem Server werden gelöscht.',
  reinstallWarning: 'Achtung: Bei der Neuinstallation werden alle Daten auf dem Server unwiderruflich gelöscht.',
  reinstallConfirmRequired: 'Bitte bestätigen Sie, dass alle Daten auf dem Server gelöscht werden.',
  reinstallOwnerOnly: 'Nur der Besitzer des Servers kann ihn neu installieren.',
  osRequired: 'Bitte wählen Sie ein Betriebssystem.',
  osLinuxOnly: 'Die Auswahl des Betriebssystems ist nur für Linux-Server möglich.',
  sshKeyInvalid: (line: number) => `Ungültiger SSH-Schlüssel in Zeile ${line}. Erlaubt sind ssh-ed25519, ssh-rsa und ecdsa-sha2-* mit Base64-Inhalt und optionalem Kommentar.`,
  sshKeyTooMany: 'Höchstens 20 SSH-Schlüssel sind erlaubt.',
  sshKeysSaved: 'SSH-Schlüssel wurden gespeichert.',
  rootPasswordSaved: 'Das Root-Passwort wurde geändert.',
  rootPasswordFailed: 'Das Root-Passwort konnte nicht geändert werden.',
  adminPasswordSaved: 'Das Administrator-Passwort wurde geändert.',
  adminPasswordFailed: 'Das Administrator-Passwort konnte nicht geändert werden.',
  sshKeysWindows: 'Windows-Server verwenden keine SSH-Schlüssel. Die Anmeldung erfolgt mit dem Administrator-Passwort.',
  passwordsDiffer: messages.passwordsDiffer,
  passwordRulesUnmet: messages.passwordRulesUnmet,
  usernameRequired: messages.usernameRequired,
  userNotFound: 'Benutzer nicht gefunden. Bitte prüfen Sie den Benutzernamen.',
  shareSelf: 'Sie können den Server nicht mit sich selbst teilen. Bitte geben Sie einen anderen Benutzernamen ein.',
  shareExists: 'Der Server ist bereits mit diesem Benutzer geteilt.',
  shareNotFound: 'Dieser Benutzer hat keinen Zugriff auf den Server.',
  shareOwnerOnly: 'Nur der Besitzer des Servers kann den Zugriff verwalten.',
  shared: (username: string) => `Der Zugriff wurde für ${username} freigegeben.`,
  unshared: (username: string) => `Der Zugriff von ${username} wurde entfernt.`,
  sharedNote: 'Dieser Server wurde vom Besitzer mit Ihnen geteilt. Sie können ihn bedienen; den Zugriff verwaltet der Besitzer.',
} as const;

// ── Catalogue (§3, fixed) ──────────────────────────────────────────────────────────────────────────
export const SOFTWARE_CATEGORIES = ['web', 'db', 'dev', 'security', 'system'] as const;
export const SoftwareCategory = z.enum(SOFTWARE_CATEGORIES);
export type SoftwareCategory = z.infer<typeof SoftwareCategory>;
export const softwareCategoryLabels: Record<SoftwareCategory, string> = {
  web: 'Webserver', db: 'Datenbank', dev: 'Entwicklung', security: 'Sicherheit', system: 'System',
};

export const SOFTWARE_IDS = ['nginx', 'apache', 'mysql', 'mongodb', 'node', 'python', 'php', 'fail2ban', 'docker'] as const;
export const SoftwareId = z.enum(SOFTWARE_IDS, { error: softwareMessages.missingPackage });
export type SoftwareId = z.infer<typeof SoftwareId>;

export interface SoftwareCatalogueEntry {
  id: SoftwareId;
  name: string;
  description: string;
  category: SoftwareCategory;
  version: string;
  /** Download size in MB. */
  sizeMb: number;
  /** Debian/Ubuntu package names; the first is the one checked with dpkg. */
  packages: readonly string[];
  /** Asks for credentials before installing (§5). */
  credentials?: 'mysql' | 'mongodb';
}

export const softwareCatalogue: readonly SoftwareCatalogueEntry[] = [
  { id: 'nginx', name: 'Nginx', description: 'Schneller Webserver und Reverse-Proxy für Websites und Anwendungen.', category: 'web', version: '1.24.0', sizeMb: 1.7, packages: ['nginx'] },
  { id: 'apache', name: 'Apache', description: 'Bewährter Webserver mit Modulen und .htaccess-Unterstützung.', category: 'web', version: '2.4.57', sizeMb: 8.1, packages: ['apache2'] },
  { id: 'mysql', name: 'MySQL', description: 'Relationale Datenbank für Webanwendungen wie WordPress oder Shops.', category: 'db', version: '8.0.32', sizeMb: 242.5, packages: ['mysql-server'], credentials: 'mysql' },
  { id: 'mongodb', name: 'MongoDB', description: 'Dokumentenorientierte NoSQL-Datenbank für flexible Datenmodelle.', category: 'db', version: '6.0.5', sizeMb: 294.4, packages: ['mongodb-org'], credentials: 'mongodb' },
  { id: 'node', name: 'Node.js', description: 'JavaScript-Laufzeitumgebung für Server-Anwendungen und Werkzeuge.', category: 'dev', version: '18.16.0', sizeMb: 185.7, packages: ['nodejs'] },
  { id: 'python', name: 'Python', description: 'Programmiersprache für Skripte, Automatisierung und Webanwendungen.', category: 'dev', version: '3.11.3', sizeMb: 26.8, packages: ['python3'] },
  { id: 'php', name: 'PHP', description: 'Skriptsprache für dynamische Websites, mit PHP-FPM.', category: 'dev', version: '8.2.5', sizeMb: 19.4, packages: ['php'] },
  { id: 'fail2ban', name: 'Fail2ban', description: 'Schützt vor Brute-Force-Angriffen, indem auffällige IP-Adressen gesperrt werden.', category: 'security', version: '1.0.2', sizeMb: 2.2, packages: ['fail2ban'] },
  { id: 'docker', name: 'Docker', description: 'Container-Plattform zum Bereitstellen von Anwendungen in isolierten Umgebungen.', category: 'system', version: '23.0.5', sizeMb: 403.2, packages: ['docker.io'] },
];

export const findSoftware = (id: string) => softwareCatalogue.find((s) => s.id === id);

/** §9: MB below 1024, GB from 1024, TB from 1048576 (German decimal comma). */
export function formatSizeMb(mb: number) {
  const fmt = (n: number) => n.toLocaleString('de-DE', { maximumFractionDigits: 1 });
  if (mb >= 1048576) return `${fmt(mb / 1048576)} TB`;
  if (mb >= 1024) return `${fmt(mb / 1024)} GB`;
  return `${fmt(mb)} MB`;
}

// ── Software API ───────────────────────────────────────────────────────────────────────────────────
/** The app id is checked by the API (unknown → 404 'Fehlende Paketinformationen.', §5). */
export const SoftwareAppParams = z.object({ id: z.uuid({ error: 'Server nicht gefunden.' }), appId: z.string().max(64) });

const dbPassword = z.string({ error: softwareMessages.mysqlPasswordRequired }).min(1, softwareMessages.mysqlPasswordRequired)
  .refine((pw) => [...pw].length >= PASSWORD_MIN && [...pw].length <= PASSWORD_MAX, softwareMessages.dbPasswordLength);

export const MysqlCredentials = z.strictObject({ password: dbPassword });
export type MysqlCredentials = z.infer<typeof MysqlCredentials>;
export const MongoCredentials = z.strictObject({
  username: z.string({ error: softwareMessages.mongoUsernameRequired }).trim().min(1, softwareMessages.mongoUsernameRequired).regex(/^[A-Za-z0-9_.-]{1,64}$/, softwareMessages.mongoUsernameInvalid),
  password: z.string({ error: messages.passwordRequired }).min(1, messages.passwordRequired).refine((pw) => [...pw].length >= PASSWORD_MIN && [...pw].length <= PASSWORD_MAX, softwareMessages.dbPasswordLength),
});
export type MongoCredentials = z.infer<typeof MongoCredentials>;

/**
 * Install body (optional). MySQL needs a root password, MongoDB a user name and a password (§5); the
 * API refuses the install without them. They are passed to the server once and never stored or logged.
 */
export const SoftwareInstallInput = z.strictObject({ mysql: MysqlCredentials.optional(), mongodb: MongoCredentials.optional() });
export type SoftwareInstallInput = z.infer<typeof SoftwareInstallInput>;

export const SoftwareTask = z.object({
  id: z.string(),
  kind: z.enum(['install', 'uninstall']),
  appId: SoftwareId,
  status: z.enum(['running', 'ok', 'failed']),
  progress: z.number().int(),
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type SoftwareTask = z.infer<typeof SoftwareTask>;

export const SoftwareItem = z.object({
  id: SoftwareId,
  name: z.string(),
  description: z.string(),
  category: SoftwareCategory,
  version: z.string(),
  sizeMb: z.number(),
  status: z.enum(['installed', 'not-installed']),
  credentials: z.enum(['mysql', 'mongodb']).nullable(),
});
export type SoftwareItem = z.infer<typeof SoftwareItem>;

export const SoftwareList = z.object({
  apps: z.array(SoftwareItem),
  /** 'host': read from the server (dpkg); 'history': the server was not reachable, last known state. */
  source: z.enum(['host', 'history']),
  /** The running install/uninstall, or the last one if it ended within the last minute. */
  task: SoftwareTask.nullable(),
  serverStatus: ServerStatus,
});
export type SoftwareList = z.infer<typeof SoftwareList>;

export const TaskAccepted = z.object({ taskId: z.string(), status: ServerStatus, message: z.string() });
export type TaskAccepted = z.infer<typeof TaskAccepted>;

// ── Settings: SSH keys, root password, sharing ─────────────────────────────────────────────────────
export const SSH_KEYS_MAX = 20;
const SSH_KEY_LINE = /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)) ([A-Za-z0-9+/]+={0,2})(?: +([^\r\n]*))?$/;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Decodes at least `bytes` bytes of a base64 text (no DOM or Node API, so it runs everywhere). */
function decodeBase64Prefix(text: string, bytes: number) {
  let out = '';
  for (let i = 0; i < text.length && out.length < bytes; i += 4) {
    const n = [0, 1, 2, 3].map((k) => B64.indexOf(text[i + k] ?? '='));
    const v = ((n[0]! << 18) | (n[1]! << 12) | (Math.max(0, n[2]!) << 6) | Math.max(0, n[3]!)) >>> 0;
    out += String.fromCharCode((v >> 16) & 255);
    if (n[2]! >= 0) out += String.fromCharCode((v >> 8) & 255);
    if (n[3]! >= 0) out += String.fromCharCode(v & 255);
  }
  return out;
}

/** The key blob starts with the key type as an SSH string (uint32 length + bytes); it must match. */
function blobMatchesType(type: string, body: string) {
  if (body.length % 4 !== 0 || body.length < 24) return false;
  const raw = decodeBase64Prefix(body, 4 + type.length + 1);
  const len = ((raw.charCodeAt(0) << 24) | (raw.charCodeAt(1) << 16) | (raw.charCodeAt(2) << 8) | raw.charCodeAt(3)) >>> 0;
  return len === type.length && raw.slice(4, 4 + len) === type && raw.length > 4 + len;
}

/** Non-empty, trimmed lines of the text area; `null` entries mark invalid lines (1-based line numbers kept). */
export function parseSshKeys(text: string): { line: number; key: string; valid: boolean }[] {
  return text.split(/\r?\n/).map((l, i) => ({ line: i + 1, key: l.trim().replace(/\s+/g, ' ') })).filter((l) => l.key.length > 0).map((l) => {
    const m = SSH_KEY_LINE.exec(l.key);
    return { ...l, valid: !!m && blobMatchesType(m[1]!, m[2]!) };
  });
}

export const SshKeysInput = z.strictObject({
  keys: z.string({ error: messages.invalidInput }).max(SSH_KEYS_MAX * 16384, serverSettingsMessages.sshKeyTooMany).superRefine((text, ctx) => {
    const lines = parseSshKeys(text);
    if (lines.length > SSH_KEYS_MAX) ctx.addIssue({ code: 'custom', message: serverSettingsMessages.sshKeyTooMany });
    const bad = lines.find((l) => !l.valid);
    if (bad) ctx.addIssue({ code: 'custom', message: serverSettingsMessages.sshKeyInvalid(bad.line) });
  }),
});
export type SshKeysInput = z.infer<typeof SshKeysInput>;
/** The stored form: one normalised key per line. */
export const normaliseSshKeys = (text: string) => parseSshKeys(text).map((l) => l.key).join('\n');

/** The product's password rules (registration rules: length 8–64, upper, lower, digit, special). */
export const rootPasswordRules = registrationPasswordRules;
const RootPassword = z.string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .refine((pw) => [...pw].length >= PASSWORD_MIN && [...pw].length <= PASSWORD_MAX, coded('PASSWORT_TO_SHORT'))
  .refine((pw) => passwordMeetsRules(pw, rootPasswordRules), messages.passwordRulesUnmet);

export const RootPasswordInput = z.strictObject({ password: RootPassword, confirmPassword: z.string({ error: messages.passwordRequired }) })
  .refine((v) => v.password === v.confirmPassword, { message: messages.passwordsDiffer, path: ['confirmPassword'] });
export type RootPasswordInput = z.infer<typeof RootPasswordInput>;

export const ShareInput = z.strictObject({
  username: z.string({ error: messages.usernameRequired }).trim().min(1, messages.usernameRequired).max(64, serverSettingsMessages.userNotFound),
});
export type ShareInput = z.infer<typeof ShareInput>;
export const ShareParams = z.object({ id: z.uuid({ error: 'Server nicht gefunden.' }), username: z.string().min(1).max(64) });

export const ServerSettings = z.object({
  access: z.enum(['owner', 'shared']),
  sshKeys: z.string(),
  /** Only for the owner; `null` for shared users. */
  sharedWith: z.array(z.object({ username: z.string(), since: z.string() })).nullable(),
  rootPasswordSetAt: z.string().nullable(),
  /** Linux servers may choose a new OS on reinstall (§2). */
  linux: z.boolean(),
});
export type ServerSettings = z.infer<typeof ServerSettings>;

/** Answers of the Einstellungen tab's changes. */
export const SshKeysResult = z.object({ sshKeys: z.string(), message: z.string() });
export type SshKeysResult = z.infer<typeof SshKeysResult>;
export const RootPasswordResult = z.object({ message: z.string(), rootPasswordSetAt: z.string() });
export type RootPasswordResult = z.infer<typeof RootPasswordResult>;
export const ShareResult = z.object({ username: z.string(), since: z.string() });
export type ShareResult = z.infer<typeof ShareResult>;

// ── Reinstall (§5, §9; Ubuntu 22.04 instead of the spec's 22.05 per ARCHITECTURE §6) ───────────────
export const REINSTALL_OS = ['Debian 12', 'Debian 11', 'Ubuntu 25.04', 'Ubuntu 24.10', 'Ubuntu 24.04', 'Ubuntu 22.04', 'Ubuntu 20.04'] as const;
export const ReinstallOs = z.enum(REINSTALL_OS, { error: serverSettingsMessages.osRequired });
export type ReinstallOs = z.infer<typeof ReinstallOs>;
export const isLinuxOs = (os: string) => !/^windows/i.test(os.trim());
/** Linux servers have root, Windows servers an Administrator account. */
export const serverPasswordName = (os: string) => (isLinuxOs(os) ? 'Root-Passwort' : 'Administrator-Passwort');

/** `os` is chosen only for Linux servers (§2); without it the current system is installed again. */
const reinstallFields = {
  os: ReinstallOs.optional(),
  password: RootPassword,
  confirmPassword: z.string({ error: messages.passwordRequired }),
};
const passwordsMatch = (v: { password: string; confirmPassword: string }) => v.password === v.confirmPassword;
export const ReinstallInput = z.strictObject(reinstallFields)
  .refine(passwordsMatch, { message: serverSettingsMessages.reinstallMismatch, path: ['confirmPassword'] });
export type ReinstallInput = z.infer<typeof ReinstallInput>;

/** The dialog's form: the request plus the explicit confirmation, which never travels to the API. */
export const ReinstallForm = z.strictObject({
  ...reinstallFields,
  confirmLoss: z.boolean().refine((v) => v, { message: serverSettingsMessages.reinstallConfirmRequired }),
}).refine(passwordsMatch, { message: serverSettingsMessages.reinstallMismatch, path: ['confirmPassword'] });
export type ReinstallForm = z.input<typeof ReinstallForm>;

import { z } from 'zod';

/** Firewall and backup texts of the spec (§8): its wording, spelling and grammar corrected. */
export const firewallMessages = {
  createFailed: 'Bei der Erstellung der Firewall-Regel ist ein Fehler aufgetreten.',
  disabled: 'Firewall ist deaktiviert. Bitte aktivieren Sie den Firewall-Service.',
  created: 'Ihre Regel wurde erstellt.',
  deleted: 'Firewall-Regel wurde gelöscht.',
  toggled: 'Firewall wurde aktiviert/deaktiviert.',
  enabled: 'Firewall wurde aktiviert.',
  disabledOk: 'Firewall wurde deaktiviert.',
  // Our own texts (not in the spec):
  stale: 'Die Firewall-Regeln wurden inzwischen geändert. Bitte laden Sie die Liste neu und versuchen Sie es erneut.',
  ruleNotFound: 'Firewall-Regel nicht gefunden.',
  portRequired: 'Bitte geben Sie einen Port ein (z. B. 80, 443, 8000-8080 oder any).',
  portInvalid: 'Ungültiger Port. Erlaubt sind Zahlen von 1 bis 65535, Listen (80, 443), Bereiche (8000-8080) oder any.',
  portRange: 'Ungültiger Portbereich: der Anfang muss kleiner als das Ende sein.',
  portTooMany: 'Höchstens 15 Ports oder Bereiche pro Regel.',
  portNotAllowed: 'Ports sind nur bei TCP und UDP möglich. Bitte wählen Sie any.',
  protocolInvalid: 'Bitte wählen Sie ein gültiges Protokoll.',
  descriptionRequired: 'Bitte geben Sie eine Beschreibung ein.',
  descriptionTooLong: 'Die Beschreibung darf höchstens 100 Zeichen lang sein.',
  fingerprintRequired: 'Die Regel konnte nicht eindeutig bestimmt werden. Bitte laden Sie die Liste neu.',
  duplicate: 'Diese Regel gibt es bereits: Protokoll und Ports sind schon freigegeben.',
} as const;

export const backupMessages = {
  maxReached: 'Die maximale Anzahl von Backups ist erreicht.',
  createError: 'Fehler beim Erstellen des Backups.',
  /** 'Backup fehlgeschlagen: {exit status}' */
  failed: (exitStatus: string) => `Backup fehlgeschlagen: ${exitStatus}`,
  startFailed: 'Backup konnte nicht gestartet werden.',
  creating: 'Backup wird erstellt...',
  done: 'Backup abgeschlossen!',
  restoring: 'Das Backup wird wiederhergestellt...',
  deleted: 'Das Backup wurde gelöscht.',
  // Our own texts (not in the spec):
  notFound: 'Backup nicht gefunden.',
  restoreFailed: 'Die Wiederherstellung ist fehlgeschlagen',
  restored: 'Das Backup wurde wiederhergestellt.',
} as const;

// ── Firewall ─────────────────────────────────────────────────────────────────────────────────────

export const FIREWALL_PROTOCOLS = ['tcp', 'udp', 'icmp', 'esp', 'ah', 'gre', 'all'] as const;
export const FirewallProtocol = z.enum(FIREWALL_PROTOCOLS, { error: firewallMessages.protocolInvalid });
export type FirewallProtocol = z.infer<typeof FirewallProtocol>;
/** Protocols that know ports (Proxmox refuses dport without tcp/udp). */
export const PORT_PROTOCOLS: readonly FirewallProtocol[] = ['tcp', 'udp'];
export const MAX_PORT_PARTS = 15;
export const PORT_HINT = '80, 443, 8000-8080, any';

/**
 * Checks a port text: 'any', a list '80,443', ranges '8000-8080' (each part 1–65535, low < high,
 * at most 15 parts). Returns the normalised text ('80,443,8000-8080' or 'any') or a German error.
 */
export function parsePorts(input: string): { ok: true; value: string } | { ok: false; error: string } {
  const text = input.trim().toLowerCase();
  if (!text) return { ok: false, error: firewallMessages.portRequired };
  if (text === 'any') return { ok: true, value: 'any' };
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > MAX_PORT_PARTS) return { ok: false, error: firewallMessages.portTooMany };
  const valid = (p: string) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;
  for (const part of parts) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
    if (range) {
      if (!valid(range[1]!) || !valid(range[2]!)) return { ok: false, error: firewallMessages.portInvalid };
      if (Number(range[1]) >= Number(range[2])) return { ok: false, error: firewallMessages.portRange };
    } else if (!valid(part)) {
      return { ok: false, error: firewallMessages.portInvalid };
    }
  }
  return { ok: true, value: parts.map((p) => p.replace(/\s+/g, '').replace(/^0+(?=\d)/, '')).join(',') };
}

export const FirewallRuleInput = z.strictObject({
  protocol: FirewallProtocol,
  port: z.string({ error: firewallMessages.portRequired }).max(200, { error: firewallMessages.portInvalid }),
  description: z.string({ error: firewallMessages.descriptionRequired }).trim()
    .min(1, { error: firewallMessages.descriptionRequired })
    .max(100, { error: firewallMessages.descriptionTooLong })
    .refine((d) => !/[\r\n]/.test(d), { error: firewallMessages.descriptionRequired }),
}).transform((rule, ctx) => {
  const parsed = parsePorts(rule.port);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.error, path: ['port'] });
    return z.NEVER;
  }
  if (parsed.value !== 'any' && !PORT_PROTOCOLS.includes(rule.protocol)) {
    ctx.addIssue({ code: 'custom', message: firewallMessages.portNotAllowed, path: ['port'] });
    return z.NEVER;
  }
  return { ...rule, port: parsed.value };
});
export type FirewallRuleInput = z.input<typeof FirewallRuleInput>;

export const FirewallRule = z.object({
  /** Stable within one list: position plus fingerprint. */
  id: z.string(),
  /** Proxmox identifies rules by their position (0 = first, new rules are inserted at 0). */
  pos: z.number().int(),
  /** Digest of the rule's content; a delete must send it so a stale list cannot remove another rule. */
  fingerprint: z.string(),
  protocol: FirewallProtocol,
  /** '80,443', '8000-8080' or 'any' */
  port: z.string(),
  description: z.string(),
  direction: z.enum(['in', 'out']),
  action: z.enum(['ACCEPT', 'DROP', 'REJECT']),
});
export type FirewallRule = z.infer<typeof FirewallRule>;

export const FirewallState = z.object({
  enabled: z.boolean(),
  /** Empty while the firewall is off (spec: turning it off clears the displayed rules). */
  rules: z.array(FirewallRule),
});
export type FirewallState = z.infer<typeof FirewallState>;

export const FirewallToggleInput = z.strictObject({ enabled: z.boolean({ error: 'Bitte geben Sie an, ob die Firewall aktiv sein soll.' }) });
export type FirewallToggleInput = z.infer<typeof FirewallToggleInput>;
export const FirewallToggleResult = FirewallState.extend({ message: z.string() });
export type FirewallToggleResult = z.infer<typeof FirewallToggleResult>;
export const FirewallRuleParams = z.object({
  id: z.uuid({ error: 'Server nicht gefunden.' }),
  pos: z.coerce.number({ error: firewallMessages.ruleNotFound }).int({ error: firewallMessages.ruleNotFound }).min(0, { error: firewallMessages.ruleNotFound }).max(9999, { error: firewallMessages.ruleNotFound }),
});
export const FirewallDeleteQuery = z.object({ fingerprint: z.string({ error: firewallMessages.fingerprintRequired }).regex(/^[0-9a-f]{16}$/, { error: firewallMessages.fingerprintRequired }) });
export type FirewallDeleteQuery = z.infer<typeof FirewallDeleteQuery>;
export const FirewallMutationResult = FirewallState.extend({ message: z.string() });
export type FirewallMutationResult = z.infer<typeof FirewallMutationResult>;

/** The simple mode of the add-rule dialog (spec §5). */
export const FIREWALL_PRESETS = [
  { key: 'web', label: 'Webserver (HTTP/HTTPS)', protocol: 'tcp', port: '80,443', description: 'Webserver' },
  { key: 'ssh', label: 'SSH', protocol: 'tcp', port: '22', description: 'SSH' },
  { key: 'ftp', label: 'FTP', protocol: 'tcp', port: '21', description: 'FTP' },
  { key: 'smtp', label: 'SMTP', protocol: 'tcp', port: '25', description: 'SMTP' },
  { key: 'dns', label: 'DNS', protocol: 'udp', port: '53', description: 'DNS' },
  { key: 'mysql', label: 'MySQL', protocol: 'tcp', port: '3306', description: 'MySQL' },
  { key: 'postgresql', label: 'PostgreSQL', protocol: 'tcp', port: '5432', description: 'PostgreSQL' },
  { key: 'mongodb', label: 'MongoDB', protocol: 'tcp', port: '27017', description: 'MongoDB' },
  { key: 'redis', label: 'Redis', protocol: 'tcp', port: '6379', description: 'Redis' },
  { key: 'minecraft', label: 'Minecraft', protocol: 'tcp', port: '25565', description: 'Minecraft' },
] as const satisfies readonly { key: string; label: string; protocol: FirewallProtocol; port: string; description: string }[];

// ── Backups ──────────────────────────────────────────────────────────────────────────────────────

export const MAX_BACKUPS = 1;
export const BACKUP_POLL_MS = 5000;

export const Backup = z.object({
  /** Opaque id (base64url of the storage volume id); the client never sends a volume id or path. */
  id: z.string(),
  filename: z.string(),
  /** ISO 8601 */
  date: z.string(),
  type: z.enum(['Manuell', 'Automatisch']),
  /** bytes */
  size: z.number(),
});
export type Backup = z.infer<typeof Backup>;

export const BackupTask = z.object({
  id: z.string(),
  kind: z.enum(['backup', 'restore']),
  status: z.enum(['running', 'ok', 'failed']),
  progress: z.number().int(),
  /** German text when failed: 'Backup fehlgeschlagen: {exit status}' */
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BackupTask = z.infer<typeof BackupTask>;

export const BackupList = z.object({
  backups: z.array(Backup),
  max: z.number().int(),
  /** The running backup/restore, or the last one for a minute after it ended. */
  task: BackupTask.nullable(),
});
export type BackupList = z.infer<typeof BackupList>;

export const BackupParams = z.object({
  id: z.uuid({ error: 'Server nicht gefunden.' }),
  backupId: z.string().regex(/^[A-Za-z0-9_-]{1,400}$/, { error: backupMessages.notFound }),
});
export const BackupTaskResult = z.object({ task: BackupTask, message: z.string() });
export type BackupTaskResult = z.infer<typeof BackupTaskResult>;
export const BackupDeleteResult = z.object({ message: z.string() });
export type BackupDeleteResult = z.infer<typeof BackupDeleteResult>;

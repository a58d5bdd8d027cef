/**
 * The Nextcloud storage driver: every port method as calls of the provisioning API (OCS v2, /cloud/users).
 * What Nextcloud accepts and answers is written down from its source in nextcloud-api-table.ts; the fake
 * (fake-nextcloud.ts) enforces it.
 *
 * Rules Nextcloud imposes:
 * - User ids compare case-insensitively (the database backend looks them up by uid_lower); getUser
 *   answers the spelling the user was created with.
 * - A quota is kept as text made by humanFileSize ("10 GB", "1.4 GB"), so a byte count comes back rounded;
 *   storage.ts nextcloudQuota() says what will be kept.
 * - addUser sets the quota after it created the user: a quota it refuses leaves a user without it (and
 *   without the email, set last). So quotas are checked here before they are sent.
 * - enable/disable answer OCS 101 (HTTP 400) for a missing user, not 404.
 * - editUser is throttled to 50 calls in 10 minutes per admin (@UserRateThrottle): more is HTTP 429.
 */
import {
  StorageError, assertValidQuota, assertValidUserId, storageAddresses, storageMessages,
  type CreateStorageAccountSpec, type StorageAccount, type StorageAccountRef, type StorageDriver, type StorageServerRef,
} from '../storage.ts';
import { createNextcloudClient, type NextcloudClientOptions, type NextcloudConfig, type OcsAnswer } from './nextcloud-client.ts';

export type { NextcloudConfig } from './nextcloud-client.ts';

const userPath = (userId: string) => `/cloud/users/${encodeURIComponent(userId)}`;
const ok = (a: OcsAnswer) => a.status === 200 && a.statuscode === 200;
const quotaValue = (quotaBytes: number | null) => (quotaBytes === null ? 'none' : String(quotaBytes));
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/** The minimum length out of the policy's text, English or German ("at least 10 characters", "mindestens 10 Zeichen"). */
function weakPasswordMessage(text: string): string {
  const min = /at least (\d+) characters|mindestens (\d+) Zeichen/i.exec(text);
  if (min) return `Das Passwort ist dem Speicher-Server zu kurz. Es muss mindestens ${min[1] ?? min[2]} Zeichen lang sein.`;
  if (/common|gebräuchlich|häufig/i.test(text)) return 'Das Passwort gehört zu den gebräuchlichsten Passwörtern. Bitte wählen Sie ein eigenes.';
  if (/breach|compromised|kompromittiert|Datenleck/i.test(text)) return 'Das Passwort ist aus einem Datenleck bekannt. Bitte wählen Sie ein anderes.';
  return storageMessages.weak_password;
}

function toAccount(data: unknown): StorageAccount {
  const d = (data ?? {}) as Record<string, unknown>;
  const q = (d.quota ?? {}) as Record<string, unknown>;
  const quota = num(q.quota);
  // Unlimited: "none" before the user's first login, SPACE_UNLIMITED (-3) after it.
  const quotaBytes = quota !== null && quota >= 0 ? quota : null;
  const usedBytes = Math.max(0, num(q.used) ?? 0);
  const free = num(q.free);
  const relative = num(q.relative);
  const lastLogin = num(d.lastLogin) ?? 0;
  return {
    userId: String(d.id ?? ''),
    displayName: String(d.displayname ?? d['display-name'] ?? ''),
    email: typeof d.email === 'string' && d.email !== '' ? d.email : null,
    enabled: d.enabled !== false,
    quotaBytes,
    usedBytes,
    freeBytes: quotaBytes !== null && free !== null && free >= 0 ? free : null,
    usedPercent: quotaBytes === null ? 0 : relative !== null ? relative : quotaBytes > 0 ? Math.round((usedBytes / quotaBytes) * 10_000) / 100 : 0,
    lastLoginAt: lastLogin > 0 ? new Date(lastLogin) : null,
  };
}

export function createNextcloudStorage(config: NextcloudConfig, options: NextcloudClientOptions = {}): StorageDriver & { kind: 'nextcloud' } {
  const client = createNextcloudClient(config, options);
  const { call, fail } = client;

  /** Our own admin must never be disabled or deleted through a customer's account. */
  function assertNotAdmin(userId: string) {
    if (userId.toLowerCase() === config.username.toLowerCase()) throw new StorageError('invalid', storageMessages.invalid, `refused to act on the admin user ${userId}`);
  }

  function unexpected(what: string, a: OcsAnswer, hide: string[] = []): StorageError {
    return fail('unavailable', `${what}: HTTP ${a.status} OCS ${a.statuscode ?? '-'}: ${a.message || a.raw}`, storageMessages.unavailable, hide);
  }

  async function getUser(server: StorageServerRef, userId: string): Promise<StorageAccount | null> {
    const a = await call(server, 'GET', userPath(userId));
    if (ok(a)) return toAccount(a.data);
    if (a.status === 404) return null;
    throw unexpected('getUser', a);
  }

  async function edit(ref: StorageAccountRef, key: 'quota' | 'password', value: string): Promise<void> {
    const hide = key === 'password' ? [value] : [];
    const a = await call(ref.server, 'PUT', userPath(ref.userId), { key, value }, hide);
    if (ok(a)) return;
    const detail = `editUser ${key}: OCS ${a.statuscode}: ${a.message}`;
    if (a.status === 404) throw fail('not_found', detail, storageMessages.not_found, hide);
    if (key === 'quota' && a.statuscode === 102) {
      throw fail('invalid', detail, 'Der Speicher-Server lehnt dieses Speicherkontingent ab (zu groß, oder unbegrenzt ist nicht erlaubt).');
    }
    if (key === 'password' && a.statuscode === 107) throw fail('weak_password', detail, weakPasswordMessage(a.message), hide);
    if (key === 'password' && a.statuscode === 102) throw fail('invalid', detail, 'Das Passwort ist zu lang.', hide);
    // 103: the user backend (LDAP, …) cannot change passwords; 113: the key is not ours to edit.
    if (a.statuscode === 103 || a.statuscode === 113) throw fail('auth', detail, storageMessages.auth, hide);
    throw unexpected(`editUser ${key}`, a, hide);
  }

  async function setEnabled(ref: StorageAccountRef, enabled: boolean) {
    assertNotAdmin(ref.userId);
    const a = await call(ref.server, 'PUT', `${userPath(ref.userId)}/${enabled ? 'enable' : 'disable'}`);
    if (ok(a)) return;
    if (a.statuscode === 101 || a.status === 404) throw fail('not_found', `${enabled ? 'enable' : 'disable'}User: OCS ${a.statuscode}: ${a.message}`);
    throw unexpected(enabled ? 'enableUser' : 'disableUser', a);
  }

  return {
    kind: 'nextcloud',

    async isNameAvailable(server, userId) {
      assertValidUserId(userId);
      return (await getUser(server, userId)) === null;
    },

    async createAccount(spec: CreateStorageAccountSpec) {
      assertValidUserId(spec.userId);
      assertValidQuota(spec.quotaBytes);
      assertNotAdmin(spec.userId);
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(spec.email)) throw new StorageError('invalid', 'Bitte geben Sie eine gültige E-Mail-Adresse an.', 'email');
      const hide = [spec.password];
      const body: Record<string, unknown> = {
        userid: spec.userId, password: spec.password, displayName: spec.displayName, email: spec.email, quota: quotaValue(spec.quotaBytes),
      };
      if (config.group) body.groups = [config.group];
      const a = await call(spec.server, 'POST', '/cloud/users', body, hide);
      const ref = { server: spec.server, userId: spec.userId };
      if (ok(a)) return ref;
      const detail = `addUser: OCS ${a.statuscode}: ${a.message}`;
      // The quota is applied after the user was created, with the same code 102 as "exists": the user is ours
      // and has no email yet, so it goes again rather than block the name.
      if (a.statuscode === 102 && /^(Invalid quota value|Unlimited quota is forbidden)/.test(a.message)) {
        await call(spec.server, 'DELETE', userPath(spec.userId));
        throw fail('invalid', detail, 'Der Speicher-Server lehnt dieses Speicherkontingent ab (zu groß, oder unbegrenzt ist nicht erlaubt).');
      }
      switch (a.statuscode) {
        case 102: {
          // An earlier attempt of this job may have created it: ours if the email matches.
          const existing = await getUser(spec.server, spec.userId);
          if (!existing || existing.email?.toLowerCase() !== spec.email.toLowerCase()) throw fail('taken', detail);
          const own = { server: spec.server, userId: existing.userId };
          await edit(own, 'password', spec.password);
          await edit(own, 'quota', quotaValue(spec.quotaBytes));
          return own;
        }
        case 107: throw fail('weak_password', detail, weakPasswordMessage(a.message), hide);
        case 101: throw fail('invalid', detail, storageMessages.invalid, hide);
        // The group NEXTCLOUD_GROUP does not exist (104) or the admin may not use it (105).
        case 104: case 105: throw fail('auth', `${detail} (NEXTCLOUD_GROUP ${config.group ?? ''})`);
        default: throw unexpected('addUser', a, hide);
      }
    },

    async getAccount(ref) {
      return getUser(ref.server, ref.userId);
    },

    async setQuota(ref, quotaBytes) {
      assertValidQuota(quotaBytes);
      await edit(ref, 'quota', quotaValue(quotaBytes));
    },

    async setPassword(ref, password) {
      await edit(ref, 'password', password);
    },

    async enable(ref) { await setEnabled(ref, true); },
    async disable(ref) { await setEnabled(ref, false); },

    async deleteAccount(ref) {
      assertNotAdmin(ref.userId);
      const a = await call(ref.server, 'DELETE', userPath(ref.userId));
      if (ok(a) || a.status === 404) return;
      throw unexpected('deleteUser', a);
    },

    addresses: storageAddresses,
  };
}

import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { firewallMessages, type FirewallRule, type FirewallState } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { servers } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { FirewallRule as HostRule, FirewallRuleSpec, VmRef } from '../../drivers/hypervisor/hypervisor.ts';
import { findAccessibleServer, toAppError, vmOf } from './server-access.ts';

type FirewallDeps = Pick<Deps, 'db' | 'hypervisor'>;

/**
 * Decision: `servers.firewall_enabled` is the portal's switch and mirrors the host's firewall option.
 * Turning the firewall off keeps the rules on the host (they do nothing while the firewall is off) but
 * the portal reports no rules while it is off (spec: "turning it off clears the displayed rules");
 * turning it on again shows and applies them again. Nothing is lost by a mis-click.
 */

/** Digest-like fingerprint of one rule's content (Proxmox only knows positions). */
export function ruleFingerprint(rule: Pick<HostRule, 'type' | 'action' | 'proto' | 'dport' | 'comment' | 'enable'>) {
  const text = JSON.stringify([rule.type, rule.action, rule.proto, rule.dport ?? '', rule.comment, rule.enable]);
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const toRule = (r: HostRule): FirewallRule => {
  const fingerprint = ruleFingerprint(r);
  return {
    id: `${r.pos}-${fingerprint}`,
    pos: r.pos,
    fingerprint,
    protocol: r.proto,
    // Proxmox writes ranges as 8000:8080; the portal shows 8000-8080.
    port: r.dport ? r.dport.replace(/:/g, '-') : 'any',
    description: r.comment,
    direction: r.type,
    action: r.action,
  };
};

async function hostRules(deps: FirewallDeps, vm: VmRef): Promise<HostRule[]> {
  try {
    return await deps.hypervisor.listFirewallRules(vm);
  } catch (err) {
    throw toAppError(err);
  }
}

async function stateOf(deps: FirewallDeps, vm: VmRef, enabled: boolean): Promise<FirewallState> {
  if (!enabled) return { enabled, rules: [] };
  return { enabled, rules: (await hostRules(deps, vm)).sort((a, b) => a.pos - b.pos).map(toRule) };
}

export async function getFirewall(deps: FirewallDeps, user: RequestUser, id: string): Promise<FirewallState> {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  return stateOf(deps, vmOf(server, node), server.firewallEnabled);
}

export async function setFirewallEnabled(deps: FirewallDeps, user: RequestUser, id: string, enabled: boolean) {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  const vm = vmOf(server, node);
  try {
    await deps.hypervisor.setFirewall(vm, enabled);
  } catch (err) {
    throw toAppError(err);
  }
  await deps.db.update(servers).set({ firewallEnabled: enabled }).where(eq(servers.id, server.id));
  return { ...(await stateOf(deps, vm, enabled)), message: enabled ? firewallMessages.enabled : firewallMessages.disabledOk };
}

/** The ports a rule opens, independent of order and spelling ('443, 080' and '80,443' are the same). */
const portSet = (dport: string | undefined) => (dport ? dport.split(',').map((p) => p.trim().replace(/-/g, ':').replace(/(^|:)0+(?=\d)/g, '$1')).sort().join(',') : 'any');

/** Same direction, action, protocol and ports (the portal sets no source): the rule would change nothing. */
const sameEffect = (a: Pick<HostRule, 'type' | 'action' | 'proto' | 'dport'>, b: Pick<HostRule, 'type' | 'action' | 'proto' | 'dport'>) =>
  a.type === b.type && a.action === b.action && a.proto === b.proto && portSet(a.dport) === portSet(b.dport);

export async function addFirewallRule(deps: FirewallDeps, user: RequestUser, id: string, input: { protocol: HostRule['proto']; port: string; description: string }) {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  if (!server.firewallEnabled) throw conflict('FIREWALL_DISABLED', firewallMessages.disabled);
  const vm = vmOf(server, node);
  const spec: FirewallRuleSpec = {
    proto: input.protocol,
    comment: input.description,
    ...(input.port === 'any' ? {} : { dport: input.port.replace(/-/g, ':') }),
  };
  // New rules are incoming ACCEPT rules (see the hypervisor port). Two tabs adding the same rule at the
  // same moment can still both pass this check; Proxmox has no uniqueness to lean on.
  const existing = await hostRules(deps, vm);
  if (existing.some((rule) => sameEffect(rule, { ...spec, type: 'in', action: 'ACCEPT' }))) throw conflict('FIREWALL_DUPLICATE', firewallMessages.duplicate);
  try {
    await deps.hypervisor.addFirewallRule(vm, spec);
  } catch (err) {
    throw toAppError(err);
  }
  return { ...(await stateOf(deps, vm, true)), message: firewallMessages.created };
}

/**
 * Deletes the rule at `pos` only if it still has the fingerprint the client saw; otherwise the list
 * changed meanwhile (another tab, another user of a shared server) and a 409 asks for a reload.
 * A tiny window remains between the check and the delete (Proxmox has no per-rule compare-and-delete).
 */
export async function deleteFirewallRule(deps: FirewallDeps, user: RequestUser, id: string, pos: number, fingerprint: string) {
  const { server, node } = await findAccessibleServer(deps.db, user, id);
  if (!server.firewallEnabled) throw conflict('FIREWALL_DISABLED', firewallMessages.disabled);
  const vm = vmOf(server, node);
  const rules = await hostRules(deps, vm);
  const rule = rules.find((r) => r.pos === pos);
  if (!rule) {
    if (rules.some((r) => ruleFingerprint(r) === fingerprint)) throw conflict('FIREWALL_STALE', firewallMessages.stale);
    throw notFound(firewallMessages.ruleNotFound);
  }
  if (ruleFingerprint(rule) !== fingerprint) throw conflict('FIREWALL_STALE', firewallMessages.stale);
  try {
    await deps.hypervisor.deleteFirewallRule(vm, pos);
  } catch (err) {
    throw toAppError(err);
  }
  return { ...(await stateOf(deps, vm, true)), message: firewallMessages.deleted };
}

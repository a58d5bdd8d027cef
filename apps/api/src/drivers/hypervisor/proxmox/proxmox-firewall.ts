/** The VM firewall: anti-spoofing set up at provisioning, and the customer's inbound rules. */
/**
 * Digests are per section in Proxmox (pve-firewall PVE/API2/Firewall/VM.pm, Rules.pm, IPSet.pm): the
 * options have their own, the rules list its own (GET …/firewall/rules gives it on every entry), each
 * ipset and the ipset list theirs. Sending the digest of another section is refused as "detected
 * modified configuration".
 */
import type { CreateServerSpec, FirewallRule, FirewallRuleSpec, Hypervisor, VmRef } from '../hypervisor.ts';
import { num, vmPath, type ProxmoxClient } from './proxmox-client.ts';

/** Anti-spoofing: the NIC may only use the addresses we assigned (ipset ipfilter-net0). */
export async function configureAntiSpoofing({ api }: ProxmoxClient, vm: VmRef, spec: CreateServerSpec) {
  const fw = `${vmPath(vm)}/firewall`;
  const options = await api<{ digest?: string }>('GET', `${fw}/options`);
  await api('PUT', `${fw}/options`, { enable: false, ipfilter: true, policy_in: 'DROP', policy_out: 'ACCEPT', digest: options.digest });
  const sets = await api<{ name: string }[]>('GET', `${fw}/ipset`);
  if (!sets.some((s) => s.name === 'ipfilter-net0')) await api('POST', `${fw}/ipset`, { name: 'ipfilter-net0', comment: 'anti-spoofing' });
  const entries = await api<{ cidr: string }[]>('GET', `${fw}/ipset/ipfilter-net0`);
  const wanted = [spec.ipv4?.address, spec.ipv6?.address].filter((a): a is string => Boolean(a));
  for (const cidr of wanted) {
    if (!entries.some((e) => e.cidr === cidr || e.cidr.split('/')[0] === cidr)) await api('POST', `${fw}/ipset/ipfilter-net0`, { cidr });
  }
}

/**
 * Proxmox writes port ranges as `8000:8100` (pve-firewall PVE/Firewall.pm parse_port_name_number_or_range);
 * `8000-8100` is refused. The port type documents `8000-8080`, so numeric `a-b` ranges are converted.
 */
export function proxmoxPorts(dport: string | undefined) {
  if (dport === undefined) return undefined;
  return dport
    .split(',')
    .map((part) => part.trim().replace(/^(\d+)\s*-\s*(\d+)$/, '$1:$2'))
    .join(',');
}

export function createProxmoxFirewall({ api, fail }: ProxmoxClient) {
  const operations: Pick<Hypervisor, 'setFirewall' | 'listFirewallRules' | 'addFirewallRule' | 'deleteFirewallRule'> = {
    async setFirewall(vm, enabled) {
      const fw = `${vmPath(vm)}/firewall/options`;
      const options = await api<{ digest?: string }>('GET', fw);
      await api('PUT', fw, { enable: enabled, digest: options.digest });
    },

    async listFirewallRules(vm): Promise<FirewallRule[]> {
      const rows = await api<Record<string, unknown>[]>('GET', `${vmPath(vm)}/firewall/rules`);
      return rows
        .filter((r) => r.type === 'in' || r.type === 'out')
        .map((r) => ({
          pos: num(r.pos),
          type: r.type as 'in' | 'out',
          action: (['ACCEPT', 'DROP', 'REJECT'].includes(String(r.action)) ? r.action : 'DROP') as FirewallRule['action'],
          proto: (typeof r.proto === 'string' && r.proto ? r.proto : 'all') as FirewallRule['proto'],
          ...(typeof r.dport === 'string' && r.dport ? { dport: r.dport } : {}),
          comment: typeof r.comment === 'string' ? r.comment : '',
          enable: Number(r.enable ?? 0) === 1,
        }))
        .sort((a, b) => a.pos - b.pos);
    },

    async addFirewallRule(vm, rule: FirewallRuleSpec) {
      // Proxmox inserts new rules at position 0 and leaves them disabled unless enable=1. Its create_rule
      // never compares a digest (Rules.pm), so none is sent: an insert at the top cannot hit the wrong rule.
      await api('POST', `${vmPath(vm)}/firewall/rules`, {
        type: 'in',
        action: 'ACCEPT',
        proto: rule.proto === 'all' ? undefined : rule.proto,
        dport: proxmoxPorts(rule.dport),
        comment: rule.comment,
        enable: 1,
      });
    },

    async deleteFirewallRule(vm, pos) {
      const fw = `${vmPath(vm)}/firewall`;
      // Positions shift after every change: the digest of the rules list makes Proxmox refuse the delete
      // if the list changed since we read it (delete_rule compares it with assert_if_modified).
      const rules = await api<{ pos?: number; digest?: string }[]>('GET', `${fw}/rules`);
      if (!Number.isInteger(pos) || pos < 0 || pos >= rules.length) throw fail('NOT_FOUND', `no firewall rule at position ${pos} of VM ${vm.vmid}`);
      await api('DELETE', `${fw}/rules/${pos}`, { digest: rules[pos]?.digest });
    },
  };
  return operations;
}

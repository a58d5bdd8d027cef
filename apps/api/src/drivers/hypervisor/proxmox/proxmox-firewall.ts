/** The VM firewall: anti-spoofing set up at provisioning, and the customer's inbound rules. */
import type { CreateServerSpec, FirewallRule, Hypervisor, VmRef } from '../hypervisor.ts';
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

export function createProxmoxFirewall({ api }: ProxmoxClient) {
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

    async addFirewallRule(vm, rule) {
      const fw = `${vmPath(vm)}/firewall`;
      const { digest } = await api<{ digest?: string }>('GET', `${fw}/options`);
      // Proxmox inserts new rules at position 0 and leaves them disabled unless enable=1; digest guards against races.
      await api('POST', `${fw}/rules`, {
        type: 'in',
        action: 'ACCEPT',
        proto: rule.proto === 'all' ? undefined : rule.proto,
        dport: rule.dport,
        comment: rule.comment,
        enable: true,
        digest,
      });
    },

    async deleteFirewallRule(vm, pos) {
      const fw = `${vmPath(vm)}/firewall`;
      const { digest } = await api<{ digest?: string }>('GET', `${fw}/options`);
      await api('DELETE', `${fw}/rules/${pos}`, { digest });
    },
  };
  return operations;
}

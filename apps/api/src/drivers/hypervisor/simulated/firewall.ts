/** Rules are kept in Proxmox's order (new ones on top, positions renumbered) because callers address them by position. */
import type { FirewallRule, FirewallRuleSpec, VmRef } from '../hypervisor.ts';
import type { Tasks } from './tasks.ts';
import { err, type VmStore } from './vm-state.ts';

export function createFirewall(store: VmStore, tasks: Tasks) {
  const { withVm, readVm } = store;
  const { failCall } = tasks;

  async function setFirewall(vm: VmRef, enabled: boolean) {
    failCall('firewall', vm);
    await withVm(vm, ({ state }) => {
      state.firewall.enabled = enabled;
      return { state, result: undefined };
    });
  }

  async function listFirewallRules(vm: VmRef): Promise<FirewallRule[]> {
    failCall('firewall', vm);
    const { state } = await readVm(vm);
    return state.firewall.rules.map((r, pos) => ({ ...r, pos }));
  }

  async function addFirewallRule(vm: VmRef, rule: FirewallRuleSpec) {
    failCall('firewall', vm);
    if (rule.dport !== undefined && !/^\d{1,5}([-:]\d{1,5})?(,\d{1,5}([-:]\d{1,5})?)*$/.test(rule.dport)) {
      throw err('INVALID', `dport: invalid port '${rule.dport}'`);
    }
    await withVm(vm, ({ state }) => {
      const next: FirewallRule = { pos: 0, type: 'in', action: 'ACCEPT', enable: true, proto: rule.proto, comment: rule.comment, ...(rule.dport !== undefined ? { dport: rule.dport } : {}) };
      state.firewall.rules = [next, ...state.firewall.rules].map((r, pos) => ({ ...r, pos }));
      return { state, result: undefined };
    });
  }

  async function deleteFirewallRule(vm: VmRef, pos: number) {
    failCall('firewall', vm);
    await withVm(vm, ({ state }) => {
      if (!Number.isInteger(pos) || pos < 0 || pos >= state.firewall.rules.length) throw err('NOT_FOUND', `no rule at position ${pos}`);
      state.firewall.rules = state.firewall.rules.filter((_, i) => i !== pos).map((r, i) => ({ ...r, pos: i }));
      return { state, result: undefined };
    });
  }

  return { setFirewall, listFirewallRules, addFirewallRule, deleteFirewallRule };
}

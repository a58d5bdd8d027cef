/**
 * The simulated hypervisor: the embedded default, so that a demo without a Proxmox cluster feels real.
 *
 * All state lives in the database (`sim_vms`: one jsonb state per VM, see vm-state.ts; `sim_tasks`:
 * Proxmox-like tasks with a UPID, a duration and an effect, see tasks.ts). No timers: effects are applied
 * lazily by the first read that sees a task finished, so the simulation survives restarts and is shared
 * by several API instances on one database.
 *
 * This file only wires the parts together behind the Hypervisor port; the parts never import it.
 */
import type { Db } from '../../../db/client.ts';
import { nodes, simVms } from '../../../db/schema/infrastructure.ts';
import type { Hypervisor, NodeInfo, UsagePoint, VmRef, VmStatus } from '../hypervisor.ts';
import { createBackups } from './backups.ts';
import { createFirewall } from './firewall.ts';
import { createGuestAgent } from './guest-agent.ts';
import { createLifecycle } from './lifecycle.ts';
import { createTasks, lockOf, settleFinishedTasks, type FailureInjector, type InjectedFailure } from './tasks.ts';
import { nodeUsage, usagePoints, vmStatusAt } from './usage-model.ts';
import { createVdc } from './vdc.ts';
import { asState, createVmStore } from './vm-state.ts';

export type { FailureInjector, InjectedFailure, SimOp } from './tasks.ts';

export interface SimulatedHypervisorOptions {
  /** Divides every duration (tests use 50). Default 1. */
  speed?: number;
  failures?: FailureInjector;
  /** Nodes reported by listNodes (names or full infos). Default a single generous node 'sim1'. */
  nodes?: (string | NodeInfo)[];
  /** Clock in ms (tests). */
  now?: () => number;
  /** Virtual data centers: the SDN zone (default 'vdc') and the ISO storage (default 'local'). */
  sdnZone?: string;
  isoStorage?: string;
}

export type SimulatedHypervisor = Hypervisor & {
  readonly kind: 'simulated';
  injectFailure(next: InjectedFailure): void;
  /** Forgets all injected failures. */
  reset(): void;
};

export function createSimulatedHypervisor(db: Db, opts: SimulatedHypervisorOptions = {}): SimulatedHypervisor {
  const speed = opts.speed && opts.speed > 0 ? opts.speed : 1;
  const now = opts.now ?? Date.now;
  const store = createVmStore(db, now, settleFinishedTasks);
  const tasks = createTasks(db, store, { speed, now, failures: opts.failures });
  const { failCall } = tasks;

  async function currentStatus(vm: VmRef): Promise<VmStatus> {
    failCall('status', vm);
    const { state, pending, at } = await store.readVm(vm);
    return vmStatusAt(vm.vmid, state, at, lockOf(pending));
  }

  async function usageHistory(vm: VmRef, timeframe: 'hour' | 'day' | 'week'): Promise<UsagePoint[]> {
    failCall('status', vm);
    const { state, at } = await store.readVm(vm);
    return usagePoints(vm.vmid, state, at, timeframe);
  }

  async function listNodes(): Promise<NodeInfo[]> {
    failCall('nodes');
    const vms = await db.select({ node: simVms.node, state: simVms.state }).from(simVms);
    // The simulated cluster has every node the portal knows, as large as entered there (statistics).
    const known = await db.select({ name: nodes.name, cpuCores: nodes.cpuCores, ramGb: nodes.ramGb, storageGb: nodes.storageGb }).from(nodes);
    const at = now();
    const configured = opts.nodes?.length ? opts.nodes : ['sim1'];
    const names = new Set<string>(configured.map((n) => (typeof n === 'string' ? n : n.node)));
    for (const v of vms) names.add(v.node);
    for (const k of known) names.add(k.name);
    return [...names].sort().map((name) => {
      const given = configured.find((n): n is NodeInfo => typeof n !== 'string' && n.node === name);
      if (given) return given;
      return nodeUsage(name, vms.filter((v) => v.node === name).map((v) => asState(v.state)), at, known.find((k) => k.name === name));
    });
  }

  return {
    kind: 'simulated',
    listNodes,
    ...createLifecycle(db, store, tasks, now),
    taskStatus: tasks.taskStatus,
    waitForTask: tasks.waitForTask,
    currentStatus, usageHistory,
    ...createBackups(store, tasks),
    ...createFirewall(store, tasks),
    ...createGuestAgent(store, tasks, now),
    ...createVdc(db, store, tasks, now, {
      zone: opts.sdnZone ?? 'vdc',
      isoStorage: opts.isoStorage ?? 'local',
      clusterNode: (() => {
        const first = opts.nodes?.[0];
        return typeof first === 'string' ? first : first?.node ?? 'sim1';
      })(),
    }),
    injectFailure: tasks.injectFailure,
    reset: tasks.resetFailures,
  };
}

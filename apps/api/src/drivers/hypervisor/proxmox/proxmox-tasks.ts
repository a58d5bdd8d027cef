/** Proxmox tasks (UPIDs): status, waiting with progress, and local no-op tasks. */
import { formatUpid, HypervisorError, parseUpid, type TaskRef, type TaskState, type VmRef } from '../hypervisor.ts';
import { sleep, type ProxmoxClient } from './proxmox-client.ts';

/** Synthetic task for a no-op (e.g. start on a running server): answered locally, never sent to the node. */
const NOOP_USER = 'noop@portal';

export type ProxmoxTasks = ReturnType<typeof createProxmoxTasks>;

export function createProxmoxTasks(client: ProxmoxClient) {
  const { api, fail, attempts, backoff, pollIntervalMs, taskTimeoutMs } = client;

  function taskRef(node: string, upid: unknown): TaskRef {
    if (typeof upid !== 'string' || !upid.startsWith('UPID:')) throw fail('UNAVAILABLE', `unexpected task id from node ${node}`);
    // parseUpid expects 8 hex digits for pstart; Proxmox uses 9 after ~497 days of node uptime, so fall back to field 2.
    return { node: parseUpid(upid)?.node ?? upid.split(':')[1] ?? node, upid };
  }

  function noopTask(vm: VmRef, type: string): TaskRef {
    const upid = formatUpid({ node: vm.node, pid: 0, pstart: 0, starttime: Math.floor(Date.now() / 1000), type, id: String(vm.vmid), user: NOOP_USER });
    return { node: vm.node, upid };
  }

  /** Some calls answer with a task id, some (synchronous variants) with null. */
  async function waitIfTask(node: string, result: unknown, onProgress?: (p: number) => void) {
    if (typeof result === 'string' && result.startsWith('UPID:')) await waitForTask(taskRef(node, result), { onProgress });
  }

  async function taskStatus(task: TaskRef): Promise<TaskState> {
    const parsed = parseUpid(task.upid);
    if (parsed?.user === NOOP_USER && parsed.pid === 0) return { status: 'ok' };
    const node = parsed?.node ?? task.upid.split(':')[1] ?? task.node;
    const data = await api<{ status: string; exitstatus?: string }>('GET', `/nodes/${encodeURIComponent(node)}/tasks/${encodeURIComponent(task.upid)}/status`);
    if (data.status !== 'stopped') return { status: 'running' };
    const exit = data.exitstatus ?? '';
    if (exit === 'OK' || /^WARNINGS: \d+$/.test(exit)) return { status: 'ok' };
    return { status: 'failed', error: exit || 'unknown error' };
  }

  async function waitForTask(task: TaskRef, waitOpts: { timeoutMs?: number; onProgress?: (percent: number) => void } = {}) {
    const budget = waitOpts.timeoutMs ?? taskTimeoutMs;
    const started = Date.now();
    let reported = -1;
    const report = (p: number) => {
      const value = Math.max(reported, Math.min(100, Math.round(p)));
      if (value !== reported) {
        reported = value;
        waitOpts.onProgress?.(value);
      }
    };
    report(0);
    let blips = 0;
    for (;;) {
      let state: TaskState;
      try {
        state = await taskStatus(task);
        blips = 0;
      } catch (err) {
        // The task keeps running on the node; a short network blip must not abandon a long clone.
        const transient = err instanceof HypervisorError && (err.code === 'UNAVAILABLE' || err.code === 'TIMEOUT');
        if (!transient || ++blips >= attempts || Date.now() - started >= budget) throw err;
        await sleep(backoff(blips));
        continue;
      }
      if (state.status === 'ok') return report(100);
      if (state.status === 'failed') throw fail('TASK_FAILED', state.error);
      const elapsed = Date.now() - started;
      if (elapsed >= budget) throw fail('TIMEOUT', `task ${task.upid} still running after ${budget} ms`);
      // Proxmox reports no percentage: approach 95 % asymptotically (half-way after ~20 s).
      report(95 * (1 - Math.exp(-elapsed / 30_000)));
      await sleep(Math.min(pollIntervalMs, Math.max(0, budget - elapsed)));
    }
  }

  return { taskRef, noopTask, waitIfTask, taskStatus, waitForTask };
}

/**
 * What the guest agent and cloud-init do inside a simulated VM: run commands, set the root password and
 * SSH keys, open the console. Package installs change the stored state, so status and usage follow them.
 */
import { hashPassword } from '../../../lib/passwords.ts';
import type { ConsoleConnection, ExecResult, VmRef } from '../hypervisor.ts';
import { SimConsole } from './console-shell.ts';
import { PACKAGES } from './guest-catalog.ts';
import { runScript } from './shell-commands.ts';
import type { Tasks } from './tasks.ts';
import { err, type VmStore } from './vm-state.ts';

export function createGuestAgent(store: VmStore, tasks: Tasks, now: () => number) {
  const { withVm, readVm } = store;
  const { failCall, elapse } = tasks;

  async function exec(vm: VmRef, command: string[]): Promise<ExecResult> {
    failCall('exec', vm);
    const { state } = await readVm(vm);
    if (state.status !== 'running') throw err('INVALID', `VM ${vm.vmid} is not running`);
    const run = runScript(command, { state, vmid: vm.vmid, at: now() });
    await elapse(run.durationMs);
    if (run.install.length || run.remove.length) {
      await withVm(vm, ({ state: s }) => {
        const set = new Set(s.packages);
        for (const p of run.install) set.add(p);
        for (const p of run.remove) set.delete(p);
        s.packages = PACKAGES.map((p) => p.name).filter((n) => set.has(n));
        return { state: s, result: undefined };
      });
    }
    return { exitCode: run.exitCode, stdout: run.stdout };
  }

  async function setRootPassword(vm: VmRef, password: string) {
    failCall('password', vm);
    const hash = await hashPassword(password);
    await withVm(vm, ({ state }) => {
      state.rootPasswordHash = hash;
      return { state, result: undefined };
    });
  }

  async function setSshKeys(vm: VmRef, keys: string) {
    failCall('sshkeys', vm);
    await withVm(vm, ({ state }) => {
      state.sshKeys = keys;
      return { state, result: undefined };
    });
  }

  async function openConsole(vm: VmRef): Promise<ConsoleConnection> {
    failCall('console', vm);
    const { state } = await readVm(vm);
    if (state.status !== 'running') throw err('INVALID', `VM ${vm.vmid} not running`);
    return new SimConsole(vm, state, now, async (argv) => {
      const result = await exec(vm, argv);
      return { result, state: (await readVm(vm)).state };
    });
  }

  return { exec, setRootPassword, setSshKeys, openConsole };
}

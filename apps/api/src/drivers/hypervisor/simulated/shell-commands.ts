/**
 * The guest's command interpreter, shared by the guest agent's exec and the console so that both give
 * the same answers. Pure: package changes are only reported (`install`/`remove`); the caller persists them.
 */
import { findPackage, OS, PACKAGES, type Package } from './guest-catalog.ts';
import { cpuAt, diskUsed, GiB, memAt, MiB, seedOf } from './usage-model.ts';
import type { SimVmState } from './vm-state.ts';

/** Durations at speed 1 (ms); the caller scales them like task durations. */
const COMMAND_MS = {
  install: 4_000,
  remove: 2_000,
  command: 300,
} as const;

export interface ShellEnv {
  state: SimVmState;
  vmid: number;
  at: number;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  install: string[];
  remove: string[];
  durationMs: number;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Splits a shell line into words (quotes, no expansion). */
export function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** Runs argv; `sh -c` / `bash -c` scripts are split on `&&`, `;` and new lines. */
export function runScript(argv: string[], env: ShellEnv): RunResult {
  const result: RunResult = { exitCode: 0, stdout: '', install: [], remove: [], durationMs: 0 };
  const scripts = (argv[0] === 'sh' || argv[0] === 'bash' || argv[0] === '/bin/sh' || argv[0] === '/bin/bash') && argv[1] === '-c'
    ? (argv[2] ?? '').split(/&&|;|\n/).map((s) => words(s)).filter((w) => w.length)
    : [argv];
  for (const cmd of scripts) {
    const r = runCommand(cmd, { ...env, state: { ...env.state, packages: [...new Set([...env.state.packages, ...result.install])].filter((p) => !result.remove.includes(p)) } });
    result.stdout += r.stdout;
    result.exitCode = r.exitCode;
    result.install.push(...r.install);
    result.remove.push(...r.remove);
    result.durationMs += r.durationMs;
    if (r.exitCode !== 0) break;
  }
  return result;
}

function aptOutput(env: ShellEnv, action: 'install' | 'remove', names: string[], tool: 'apt' | 'dnf'): RunResult {
  const info = OS[env.state.os];
  const res: RunResult = { exitCode: 0, stdout: '', install: [], remove: [], durationMs: COMMAND_MS.command };
  const unknown = names.filter((n) => !findPackage(n));
  if (tool === 'dnf') {
    if (unknown.length) return { ...res, exitCode: 1, stdout: `Last metadata expiration check: 0:12:04 ago.\nNo match for argument: ${unknown[0]}\nError: Unable to find a match: ${unknown.join(' ')}\n` };
  } else {
    res.stdout = 'Reading package lists... Done\nBuilding dependency tree... Done\nReading state information... Done\n';
    if (unknown.length) return { ...res, exitCode: 100, stdout: `${res.stdout}E: Unable to locate package ${unknown[0]}\n` };
  }
  const pkgs = names.map((n) => findPackage(n)!);
  const installed = new Set(env.state.packages);
  if (action === 'install') {
    const todo = pkgs.filter((p) => !installed.has(p.name));
    for (const p of pkgs.filter((x) => installed.has(x.name))) {
      res.stdout += tool === 'apt' ? `${p.name} is already the newest version (${p.version}).\n` : `Package ${p.name}-${p.version}.x86_64 is already installed.\n`;
    }
    if (!todo.length) {
      res.stdout += tool === 'apt' ? '0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n' : 'Dependencies resolved.\nNothing to do.\nComplete!\n';
      return res;
    }
    const all = todo.flatMap((p) => [...p.deps, p.name]);
    const kb = todo.reduce((s, p) => s + p.sizeKb, 0);
    if (tool === 'apt') {
      res.stdout += `The following NEW packages will be installed:\n  ${all.join(' ')}\n0 upgraded, ${all.length} newly installed, 0 to remove and 0 not upgraded.\n`;
      res.stdout += `Need to get ${Math.round(kb / 3).toLocaleString('en-US')} kB of archives.\nAfter this operation, ${kb.toLocaleString('en-US')} kB of additional disk space will be used.\n`;
      all.forEach((name, i) => {
        const p = findPackage(name);
        res.stdout += `Get:${i + 1} ${info.mirror} amd64 ${name} amd64 ${p?.version ?? todo[0]!.version} [${Math.round(kb / 3 / all.length)} kB]\n`;
      });
      res.stdout += `Fetched ${Math.round(kb / 3).toLocaleString('en-US')} kB in 1s (${Math.round(kb / 2.5).toLocaleString('en-US')} kB/s)\n`;
      for (const name of all) res.stdout += `Selecting previously unselected package ${name}.\nUnpacking ${name} ...\n`;
      for (const name of all) res.stdout += `Setting up ${name} (${findPackage(name)?.version ?? todo[0]!.version}) ...\n`;
      for (const p of todo) if (p.service) res.stdout += `Created symlink /etc/systemd/system/multi-user.target.wants/${p.service}.service → /lib/systemd/system/${p.service}.service.\n`;
      res.stdout += 'Processing triggers for man-db (2.11.2-2) ...\n';
    } else {
      res.stdout += `Dependencies resolved.\nInstalling:\n${all.map((n) => ` ${n}   x86_64   ${appVersion(n, todo)}   appstream`).join('\n')}\n\nTransaction Summary\nInstall  ${all.length} Packages\n\nTotal download size: ${Math.round(kb / 3000)} M\nRunning transaction\n${all.map((n) => `  Installing       : ${n}`).join('\n')}\n\nComplete!\n`;
    }
    res.install = todo.map((p) => p.name);
    res.durationMs = COMMAND_MS.install * todo.length;
    return res;
  }
  const todo = pkgs.filter((p) => installed.has(p.name));
  for (const p of pkgs.filter((x) => !installed.has(x.name))) res.stdout += tool === 'apt' ? `Package '${p.name}' is not installed, so not removed\n` : `No match for argument: ${p.name}\n`;
  if (!todo.length) {
    res.stdout += tool === 'apt' ? '0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n' : 'Dependencies resolved.\nNothing to do.\nComplete!\n';
    return res;
  }
  if (tool === 'apt') {
    res.stdout += `The following packages will be REMOVED:\n  ${todo.map((p) => p.name).join(' ')}\n0 upgraded, 0 newly installed, ${todo.length} to remove and 0 not upgraded.\n`;
    res.stdout += `After this operation, ${todo.reduce((s, p) => s + p.sizeKb, 0).toLocaleString('en-US')} kB disk space will be freed.\n`;
    for (const p of todo) res.stdout += `Removing ${p.name} (${p.version}) ...\n`;
    res.stdout += 'Processing triggers for man-db (2.11.2-2) ...\n';
  } else {
    res.stdout += `Dependencies resolved.\nRemoving:\n${todo.map((p) => ` ${p.name}   x86_64   ${p.version}`).join('\n')}\n\nComplete!\n`;
  }
  res.remove = todo.map((p) => p.name);
  res.durationMs = COMMAND_MS.remove * todo.length;
  return res;
}
const appVersion = (name: string, todo: Package[]) => findPackage(name)?.version ?? todo[0]!.version;

function fmtUptime(seconds: number) {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const parts = d ? `${d} day${d === 1 ? '' : 's'}, ` : '';
  return h ? `${parts}${String(h).padStart(2, ' ')}:${pad2(m)}` : `${parts}${m} min`;
}

/** One command; no pipes or redirections. */
export function runCommand(argvIn: string[], env: ShellEnv): RunResult {
  const ok = (stdout: string, durationMs: number = COMMAND_MS.command): RunResult => ({ exitCode: 0, stdout, install: [], remove: [], durationMs });
  const fail = (exitCode: number, stdout: string): RunResult => ({ exitCode, stdout, install: [], remove: [], durationMs: COMMAND_MS.command });
  // Leading VAR=value assignments (DEBIAN_FRONTEND=noninteractive apt-get …) and sudo.
  let argv = argvIn;
  while (argv.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]!) || argv[0] === 'sudo' || argv[0] === 'env')) argv = argv.slice(1);
  const [cmd = '', ...args] = argv;
  const s = env.state;
  const info = OS[s.os];
  const t = env.at / 1000;
  const running = s.status === 'running';
  const upSeconds = running && s.startedAt ? Math.max(0, Math.floor(t - s.startedAt / 1000)) : 0;
  const host = s.name;
  const has = (name: string) => s.packages.includes(name);
  switch (cmd) {
    case '':
      return ok('');
    case 'true':
    case ':':
      return ok('');
    case 'false':
      return fail(1, '');
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'hostname':
      return ok(`${host}\n`);
    case 'whoami':
      return ok('root\n');
    case 'id':
      return ok('uid=0(root) gid=0(root) groups=0(root)\n');
    case 'pwd':
      return ok('/root\n');
    case 'date':
      return ok(`${new Date(env.at).toUTCString().replace('GMT', 'UTC')}\n`);
    case 'uname':
      if (args.includes('-a')) return ok(`Linux ${host} ${info.kernel} ${info.kernelBuild} x86_64 GNU/Linux\n`);
      if (args.includes('-r')) return ok(`${info.kernel}\n`);
      return ok('Linux\n');
    case 'uptime': {
      const load = (k: number) => (cpuAt(env.vmid, t - k * 60) * s.cores).toFixed(2);
      return ok(` ${new Date(env.at).toISOString().slice(11, 19)} up ${fmtUptime(upSeconds)},  1 user,  load average: ${load(1)}, ${load(5)}, ${load(15)}\n`);
    }
    case 'df': {
      const size = s.diskGb * GiB;
      const used = diskUsed(env.vmid, t, s);
      const human = (b: number) => (b >= GiB ? `${(b / GiB).toFixed(1)}G` : `${Math.round(b / MiB)}M`);
      const memMb = s.memoryMb;
      return ok([
        'Filesystem      Size  Used Avail Use% Mounted on',
        `udev            ${human(memMb * MiB * 0.48).padEnd(5)}    0  ${human(memMb * MiB * 0.48).padEnd(5)}   0% /dev`,
        `tmpfs           ${human(memMb * MiB * 0.1).padEnd(5)} 528K  ${human(memMb * MiB * 0.1).padEnd(5)}   1% /run`,
        `/dev/sda1       ${human(size).padEnd(5)} ${human(used).padEnd(5)} ${human(size - used).padEnd(5)} ${String(Math.round((used / size) * 100)).padStart(3)}% /`,
        `tmpfs           ${human(memMb * MiB * 0.5).padEnd(5)}    0  ${human(memMb * MiB * 0.5).padEnd(5)}   0% /dev/shm`,
        '/dev/sda15      124M   12M  113M  10% /boot/efi',
      ].join('\n') + '\n');
    }
    case 'free': {
      const total = s.memoryMb;
      const used = Math.round(memAt(env.vmid, t, s) / MiB);
      const cache = Math.round((total - used) * 0.35);
      const free = total - used - cache;
      return ok(`               total        used        free      shared  buff/cache   available\nMem:    ${String(total).padStart(12)}${String(used).padStart(12)}${String(free).padStart(12)}${String(2).padStart(12)}${String(cache).padStart(12)}${String(free + cache).padStart(12)}\nSwap:              0           0           0\n`);
    }
    case 'ip': {
      if (!['a', 'addr', 'address'].includes(args[0] ?? '')) return fail(1, 'Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n');
      const hex = (n: number) => (n & 0xff).toString(16).padStart(2, '0');
      const mac = `bc:24:11:${hex(env.vmid >> 8)}:${hex(env.vmid)}:${hex(Math.floor(seedOf(env.vmid) * 255))}`;
      const v4 = s.ipv4 ? `    inet ${s.ipv4.address}/${s.ipv4.prefix} brd + scope global eth0\n       valid_lft forever preferred_lft forever\n` : '';
      const v6 = s.ipv6 ? `    inet6 ${s.ipv6.address}/${s.ipv6.prefix} scope global\n       valid_lft forever preferred_lft forever\n` : '';
      return ok(`1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000\n    link/ether ${mac} brd ff:ff:ff:ff:ff:ff\n    altname enp0s18\n${v4}${v6}`);
    }
    case 'ls': {
      const all = args.some((a) => a.startsWith('-') && a.includes('a'));
      const entries = [...(all ? ['.', '..', '.bashrc', '.profile', '.ssh'] : []), ...(has('docker') ? ['docker-compose.yml'] : [])];
      return ok(entries.length ? `${entries.join('  ')}\n` : '');
    }
    case 'cat':
      if (args[0] === '/etc/os-release') return ok(`PRETTY_NAME="${info.pretty}"\nNAME="${info.issue.replace(/ \d.*$/, '')}"\nID=${info.family}\n`);
      if (args[0] === '/etc/hostname') return ok(`${host}\n`);
      return fail(1, `cat: ${args[0] ?? ''}: No such file or directory\n`);
    case 'apt':
    case 'apt-get': {
      const sub = args.find((a) => !a.startsWith('-'));
      const names = args.filter((a) => !a.startsWith('-') && a !== sub);
      if (sub === 'update') return ok(`Hit:1 ${info.mirror.split(' ')[0]} ${info.mirror.split(' ')[1]?.split('/')[0] ?? ''} InRelease\nReading package lists... Done\n`, 1500);
      if (sub === 'install' || sub === 'remove' || sub === 'purge') {
        if (!names.length) return ok('Reading package lists... Done\nBuilding dependency tree... Done\n0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n');
        return aptOutput(env, sub === 'install' ? 'install' : 'remove', names, 'apt');
      }
      return fail(100, `E: Invalid operation ${sub ?? ''}\n`);
    }
    case 'dnf':
    case 'yum': {
      const sub = args.find((a) => !a.startsWith('-'));
      const names = args.filter((a) => !a.startsWith('-') && a !== sub);
      if (sub === 'install' || sub === 'remove' || sub === 'erase') return aptOutput(env, sub === 'install' ? 'install' : 'remove', names, 'dnf');
      return fail(1, `No such command: ${sub ?? ''}.\n`);
    }
    case 'dpkg': {
      const name = args.find((a) => !a.startsWith('-')) ?? '';
      const p = findPackage(name);
      if (p && has(p.name)) return ok(`Package: ${p.name}\nStatus: install ok installed\nVersion: ${p.version}\n`);
      return fail(1, `dpkg-query: package '${name}' is not installed and no information is available\n`);
    }
    case 'systemctl': {
      const unit = (args[1] ?? '').replace(/\.service$/, '');
      const p = PACKAGES.find((x) => x.service === unit || x.name === unit);
      if (!p || !has(p.name)) return fail(args[0] === 'is-active' ? 4 : 5, args[0] === 'is-active' ? 'inactive\n' : `Failed to ${args[0] ?? 'run'} ${unit}.service: Unit ${unit}.service not found.\n`);
      return ok(args[0] === 'is-active' ? 'active\n' : args[0] === 'status' ? `● ${unit}.service\n     Loaded: loaded (/lib/systemd/system/${unit}.service; enabled)\n     Active: active (running)\n` : '');
    }
    case 'debconf-set-selections':
    case 'chpasswd':
    case 'export':
      return ok('');
    case 'mysql':
      return has('mysql-server') ? ok('') : fail(127, 'bash: mysql: command not found\n');
    case 'mongosh':
    case 'mongo':
      return has('mongodb') ? ok('') : fail(127, `bash: ${cmd}: command not found\n`);
    case 'nginx':
      return has('nginx') ? ok(`nginx version: nginx/${findPackage('nginx')!.version.split('-')[0]}\n`) : fail(127, 'bash: nginx: command not found\n');
    case 'node':
      return has('nodejs') ? ok(`v${findPackage('nodejs')!.version.split('-')[0]}\n`) : fail(127, 'bash: node: command not found\n');
    case 'python3':
      return ok(`Python ${findPackage('python3')!.version.split('-')[0]}\n`);
    case 'php':
      return has('php') ? ok(`PHP ${findPackage('php')!.version.split('-')[0]} (cli)\n`) : fail(127, 'bash: php: command not found\n');
    case 'docker':
      return has('docker') ? ok(`Docker version ${findPackage('docker')!.version.split('-')[0]}, build bc4487a\n`) : fail(127, 'bash: docker: command not found\n');
    default:
      return fail(127, `bash: ${cmd}: command not found\n`);
  }
}

/**
 * Usage as smooth functions of time and a per-VM seed: nothing is stored, so status, history and the
 * shell's `uptime`/`free`/`df` agree with each other and stay the same across restarts and instances.
 */
import type { NodeInfo, UsagePoint, VmStatus } from '../hypervisor.ts';
import { findPackage, OS } from './guest-catalog.ts';
import type { SimVmState } from './vm-state.ts';

export const GiB = 1024 ** 3;
export const MiB = 1024 ** 2;

const TAU = Math.PI * 2;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export function seedOf(vmid: number) {
  let h = Math.imul(vmid ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 0x100000000;
}

/** 0..1 of all cores, 0.02..0.6 */
export function cpuAt(vmid: number, t: number) {
  const s = seedOf(vmid);
  const base = 0.05 + 0.1 * s;
  const slow = 0.05 * Math.sin(TAU * t / (1800 + 900 * s) + 10 * s);
  const fast = 0.025 * Math.sin(TAU * t / (61 + 40 * s) + 3 * s);
  const burst = 0.38 * Math.pow(Math.max(0, Math.sin(TAU * t / (5400 + 1800 * s) + 7 * s)), 10);
  return clamp(base + slow + fast + burst, 0.02, 0.6);
}

export function memAt(vmid: number, t: number, state: SimVmState) {
  const s = seedOf(vmid);
  const maxmem = state.memoryMb * MiB;
  const baseMb = OS[state.os].family === 'windows' ? 1400 : 160;
  const pkgMb = state.packages.reduce((sum, name) => sum + (findPackage(name)?.memMb ?? 0), 0);
  const cache = maxmem * (0.12 + 0.08 * s + 0.05 * Math.sin(TAU * t / (2400 + 900 * s) + 5 * s));
  return Math.round(clamp((baseMb + pkgMb) * MiB + cache, 0.05 * maxmem, 0.93 * maxmem));
}

export function diskUsed(vmid: number, t: number, state: SimVmState) {
  const s = seedOf(vmid);
  const base = OS[state.os].templateDiskGb * 0.55 * GiB;
  const pkgs = state.packages.reduce((sum, name) => sum + (findPackage(name)?.sizeKb ?? 0) * 1024, 0);
  const ageDays = Math.max(0, t - state.createdAt / 1000) / 86400;
  const growth = (0.05 + 0.1 * s) * GiB * Math.min(ageDays, 60) + 40 * MiB * Math.sin(TAU * t / 86400 + 2 * s);
  return Math.round(clamp(base + pkgs + Math.max(0, growth), 0, 0.95 * state.diskGb * GiB));
}

/** A rate a + b·sin(ωt + φ) in bytes/s, and its integral (a counter). */
function rateParams(vmid: number, channel: number) {
  const s = seedOf(vmid * 7 + channel);
  const a = channel === 0 ? 6_000 + 20_000 * s : channel === 1 ? 9_000 + 40_000 * s : 2_000 + 30_000 * s;
  return { a, b: a * 0.6, w: TAU / (900 + 1200 * s), phi: 10 * s };
}
function rateAt(vmid: number, channel: number, t: number) {
  const { a, b, w, phi } = rateParams(vmid, channel);
  return a + b * Math.sin(w * t + phi);
}
function counter(vmid: number, channel: number, t0: number, t1: number) {
  if (t1 <= t0) return 0;
  const { a, b, w, phi } = rateParams(vmid, channel);
  return Math.round(a * (t1 - t0) - (b / w) * (Math.cos(w * t1 + phi) - Math.cos(w * t0 + phi)));
}

function runningAt(state: SimVmState, tMs: number) {
  return state.runs.some((r) => r.from <= tMs && (r.to === undefined || tMs < r.to));
}

/** `at` in ms; `lock` as the pending tasks show it. */
export function vmStatusAt(vmid: number, state: SimVmState, at: number, lock: string | undefined): VmStatus {
  const t = at / 1000;
  const running = state.status === 'running';
  const start = (state.startedAt ?? at) / 1000;
  return {
    status: state.status,
    cpu: running ? Number(cpuAt(vmid, t).toFixed(4)) : 0,
    cpus: state.cores,
    mem: running ? memAt(vmid, t, state) : 0,
    maxmem: state.memoryMb * MiB,
    disk: diskUsed(vmid, t, state),
    maxdisk: state.diskGb * GiB,
    netin: running ? counter(vmid, 0, start, t) : 0,
    netout: running ? counter(vmid, 1, start, t) : 0,
    uptime: running ? Math.max(0, Math.floor(t - start)) : 0,
    ...(lock ? { lock } : {}),
  };
}

/** 60 points ending at `at` (ms); zero wherever the power history says the VM was off. */
export function usagePoints(vmid: number, state: SimVmState, at: number, timeframe: 'hour' | 'day' | 'week'): UsagePoint[] {
  const step = timeframe === 'hour' ? 60 : timeframe === 'day' ? 1440 : 10080;
  const points = 60;
  const last = Math.floor(at / 1000 / step) * step;
  const maxmem = state.memoryMb * MiB;
  const out: UsagePoint[] = [];
  for (let i = points - 1; i >= 0; i--) {
    const time = last - i * step;
    const on = runningAt(state, time * 1000) || (i === 0 && state.status === 'running');
    out.push({
      time,
      cpu: on ? Number(cpuAt(vmid, time).toFixed(4)) : 0,
      mem: on ? memAt(vmid, time, state) : 0,
      maxmem,
      netin: on ? Math.round(rateAt(vmid, 0, time)) : 0,
      netout: on ? Math.round(rateAt(vmid, 1, time)) : 0,
      diskread: on ? Math.round(rateAt(vmid, 2, time) * 2) : 0,
      diskwrite: on ? Math.round(rateAt(vmid, 3, time)) : 0,
    });
  }
  return out;
}

/** A generous node whose load follows the VMs placed on it. */
export function nodeUsage(name: string, vms: SimVmState[], at: number, size?: { cpuCores: number; ramGb: number; storageGb: number }): NodeInfo {
  const running = vms.filter((s) => s.status === 'running');
  const maxcpu = size?.cpuCores ?? 64;
  return {
    node: name, status: 'online' as const,
    cpu: Number(clamp(0.01 + running.reduce((sum, s) => sum + s.cores * 0.15, 0) / maxcpu, 0, 1).toFixed(4)),
    maxcpu,
    mem: 4 * GiB + running.reduce((sum, s) => sum + s.memoryMb * MiB * 0.6, 0),
    maxmem: (size?.ramGb ?? 512) * GiB,
    disk: 12 * GiB + vms.reduce((sum, s) => sum + s.diskGb * GiB * 0.3, 0),
    maxdisk: (size?.storageGb ?? 8 * 1024) * GiB,
    uptime: Math.floor(at / 1000) % (86400 * 97),
  };
}

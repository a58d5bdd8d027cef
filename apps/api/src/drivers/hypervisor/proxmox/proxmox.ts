import http from 'node:http';
import { createRequire } from 'node:module';
import type { ProxmoxConfig } from '../../../env.ts';
import {
  HypervisorError,
  formatUpid,
  hypervisorMessages,
  parseUpid,
  type BackupInfo,
  type ConsoleConnection,
  type CreateServerSpec,
  type FirewallRule,
  type Hypervisor,
  type HypervisorErrorCode,
  type NodeInfo,
  type PowerAction,
  type TaskRef,
  type TaskState,
  type UsagePoint,
  type VmRef,
  type VmStatus,
} from '../hypervisor.ts';
import { PinnedAgent, createNodeFetch, type ProxmoxFetch } from './proxmox-transport.ts';

export type { ProxmoxFetch } from './proxmox-transport.ts';

export interface ProxmoxOptions {
  fetchImpl?: ProxmoxFetch;
  /** Bounded retries for "VM is locked" and for transient failures inside createServer's steps. */
  retry?: { attempts: number; baseDelayMs: number };
  /** Per HTTP request (default 15 s). */
  timeoutMs?: number;
  /** Task polling interval (default 1 s). */
  pollIntervalMs?: number;
  /** Default budget for waitForTask (default 15 min). */
  taskTimeoutMs?: number;
}

type Params = Record<string, string | number | boolean | string[] | undefined | null>;

const GiB = 1024 ** 3;
const LOCK_PATTERN = /VM is locked|can't lock file .* got timeout/i;
const NOT_FOUND_PATTERN = /does not exist|no such (vm|task|file)|not found/i;
/** Synthetic task for a no-op (e.g. start on a running server): answered locally, never sent to the node. */
const NOOP_USER = 'noop@portal';

/** A ws WebSocket as far as the console needs it (the package ships no types here). */
interface WsSocket {
  readyState: number;
  on(event: 'open' | 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'message', listener: (data: Buffer | string) => void): void;
  send(data: string): void;
  close(): void;
  terminate(): void;
}
type WsConstructor = new (url: string, options: Record<string, unknown>) => WsSocket;

/** `ws` is used only if it is installed (it comes with @fastify/websocket); no new dependency. */
export function loadWs(): { WebSocket: WsConstructor; WebSocketServer: new (options: Record<string, unknown>) => unknown } | null {
  try {
    const mod = createRequire(import.meta.url)('ws') as WsConstructor & { WebSocketServer: new (options: Record<string, unknown>) => unknown };
    return { WebSocket: mod, WebSocketServer: mod.WebSocketServer };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createProxmoxHypervisor(config: ProxmoxConfig, opts: ProxmoxOptions = {}): Hypervisor {
  const attempts = Math.max(1, opts.retry?.attempts ?? 5);
  const baseDelayMs = opts.retry?.baseDelayMs ?? 1000;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const taskTimeoutMs = opts.taskTimeoutMs ?? 15 * 60_000;
  const baseUrl = `${config.url.replace(/\/+$/, '')}/api2/json`;
  const pinnedAgent = new PinnedAgent(config.fingerprint);
  const plainAgent = new http.Agent({ keepAlive: true });
  const fetchImpl = opts.fetchImpl ?? createNodeFetch(pinnedAgent, plainAgent);
  const tokenHeader = `PVEAPIToken=${config.tokenId}=${config.tokenSecret}`;
  const templateIds = new Set(Object.values(config.templates));

  /** Every error leaving the driver goes through here: German message, technical detail, no secrets. */
  function fail(code: HypervisorErrorCode, detail?: string, message = hypervisorMessages[code]): HypervisorError {
    return new HypervisorError(code, message, detail === undefined ? undefined : redact(detail));
  }
  function redact(text: string) {
    let out = text;
    for (const secret of [config.tokenSecret, config.consolePassword, tokenHeader]) if (secret) out = out.split(secret).join('***');
    return out;
  }

  const backoff = (attempt: number) => baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4);

  function encode(params: Params) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const v of value) form.append(key, v);
      else form.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
    }
    return form.toString();
  }

  interface Auth {
    headers: Record<string, string>;
  }
  const tokenAuth: Auth = { headers: { Authorization: tokenHeader } };

  async function requestOnce<T>(method: string, path: string, params: Params | undefined, auth: Auth): Promise<T> {
    const query = params && (method === 'GET' || method === 'DELETE') ? encode(params) : '';
    const body = params && (method === 'POST' || method === 'PUT') ? encode(params) : undefined;
    const url = `${baseUrl}${path}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json', ...auth.headers };
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const where = `${method} ${path}`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let status: number;
    let statusText: string | undefined;
    let text: string;
    try {
      const res = await fetchImpl(url, { method, headers, body, signal: controller.signal });
      status = res.status;
      statusText = res.statusText;
      text = await res.text();
    } catch (err) {
      if (timedOut) throw fail('TIMEOUT', `${where}: no answer within ${timeoutMs} ms`);
      throw fail('UNAVAILABLE', `${where}: ${networkErrorText(err)}`);
    } finally {
      clearTimeout(timer);
    }

    let json: { data?: unknown; errors?: Record<string, string>; message?: string } | undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (status >= 200 && status < 300) {
      if (!json) throw fail('UNAVAILABLE', `${where}: unreadable answer (${status})`);
      return json.data as T;
    }
    const message = (json?.message ?? statusText ?? '').trim();
    const detail = `${where}: ${status} ${message}`.trim();
    if (status === 400) {
      const errors = json?.errors ? Object.entries(json.errors).map(([k, v]) => `${k}: ${String(v).trim()}`).join('; ') : message;
      throw fail('INVALID', `${where}: ${errors}`);
    }
    if (status === 401 || status === 403) throw fail('UNAVAILABLE', `${where}: ${status} authentication or permission check failed`);
    if (LOCK_PATTERN.test(message)) throw fail('LOCKED', detail);
    if (status === 404 || NOT_FOUND_PATTERN.test(message)) throw fail('NOT_FOUND', detail);
    if (status === 502 || status === 503 || status === 595 || status === 596) throw fail('UNAVAILABLE', detail);
    if (status === 500) throw fail('TASK_FAILED', detail);
    if (status >= 500) throw fail('UNAVAILABLE', detail);
    throw fail('INVALID', detail);
  }

  /** One API call; a "VM is locked" answer changed nothing, so it is retried with backoff. */
  async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params?: Params, auth: Auth = tokenAuth): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestOnce<T>(method, path, params, auth);
      } catch (err) {
        if (err instanceof HypervisorError && err.code === 'LOCKED' && attempt < attempts) {
          await sleep(backoff(attempt));
          continue;
        }
        throw err;
      }
    }
  }

  /** createServer's steps re-read the state before they act, so transient failures may be retried. */
  async function step<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const transient = err instanceof HypervisorError && (err.code === 'UNAVAILABLE' || err.code === 'TIMEOUT');
        if (transient && attempt < attempts) {
          await sleep(backoff(attempt));
          continue;
        }
        throw err;
      }
    }
  }

  const vmPath = (vm: VmRef) => `/nodes/${encodeURIComponent(vm.node)}/qemu/${vm.vmid}`;

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

  interface RawStatus {
    status?: string;
    name?: string;
    cpu?: number;
    cpus?: number;
    mem?: number;
    maxmem?: number;
    disk?: number;
    maxdisk?: number;
    netin?: number;
    netout?: number;
    uptime?: number;
    lock?: string;
    template?: number | string;
  }

  async function findVm(vm: VmRef): Promise<RawStatus | null> {
    try {
      return await api<RawStatus>('GET', `${vmPath(vm)}/status/current`);
    } catch (err) {
      if (err instanceof HypervisorError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }

  async function readConfig(vm: VmRef) {
    return api<Record<string, string | number | undefined> & { digest?: string }>('GET', `${vmPath(vm)}/config`);
  }

  /** e.g. after a lost clone answer the clone keeps running and holds `lock: clone`. */
  async function waitForUnlock(vm: VmRef) {
    const started = Date.now();
    for (;;) {
      const state = await findVm(vm);
      if (!state) throw fail('NOT_FOUND', `VM ${vm.vmid} vanished while waiting for its lock`);
      if (!state.lock) return state;
      if (Date.now() - started > taskTimeoutMs) throw fail('LOCKED', `VM ${vm.vmid} still locked (${state.lock})`);
      await sleep(pollIntervalMs);
    }
  }

  function guardTemplate(vm: VmRef) {
    if (templateIds.has(vm.vmid)) throw fail('INVALID', `VM ${vm.vmid} is an OS template`, 'Eine Betriebssystem-Vorlage kann nicht verändert werden.');
  }

  function parseSize(raw: string | undefined): number {
    const m = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT]?)/.exec(raw ?? '');
    if (!m) return 0;
    const unit = { '': 1, K: 1024, M: 1024 ** 2, G: GiB, T: 1024 ** 4 }[m[2] as '' | 'K' | 'M' | 'G' | 'T'];
    return Number(m[1]) * unit;
  }

  function netConfig(existing: string | undefined) {
    // Keep the model and MAC address the clone got; only bridge and firewall are ours.
    const first = (existing ?? '').split(',')[0] ?? '';
    const model = /^(virtio|e1000|rtl8139|vmxnet3)(=[0-9A-Fa-f:]{17})?$/.test(first) ? first : 'virtio';
    return `${model},bridge=${config.bridge},firewall=1`;
  }

  function ipConfig(spec: CreateServerSpec) {
    const parts: string[] = [];
    if (spec.ipv4) parts.push(`ip=${spec.ipv4.address}/${spec.ipv4.prefix}`, `gw=${spec.ipv4.gateway}`);
    if (spec.ipv6) parts.push(`ip6=${spec.ipv6.address}/${spec.ipv6.prefix}`, `gw6=${spec.ipv6.gateway}`);
    return parts.length ? parts.join(',') : undefined;
  }

  async function createServer(spec: CreateServerSpec, onProgress?: (percent: number) => void) {
    const template = config.templates[spec.os];
    if (template === undefined) throw fail('INVALID', `no template for ${spec.os}`, `Für das Betriebssystem „${spec.os}“ ist auf dem Host keine Vorlage eingerichtet.`);
    guardTemplate(spec);
    const vm: VmRef = { node: spec.node, vmid: spec.vmid };
    let last = -1;
    const progress = (p: number) => {
      const value = Math.round(p);
      if (value > last) {
        last = value;
        onProgress?.(value);
      }
    };
    const within = (from: number, to: number) => (p: number) => progress(from + ((to - from) * p) / 100);
    progress(0);

    await step(async () => {
      const existing = await findVm(vm);
      if (existing) {
        // A retry after a lost answer: the clone was already created; never clone twice.
        const cfg = await readConfig(vm);
        if (Number(cfg.template ?? existing.template ?? 0) === 1 || (cfg.name !== undefined && cfg.name !== spec.name)) {
          throw fail('INVALID', `VM id ${vm.vmid} is already used by "${String(cfg.name)}"`, 'Die Server-ID ist auf dem Host bereits vergeben.');
        }
        if (existing.lock) await waitForUnlock(vm);
        return;
      }
      let upid: unknown;
      try {
        upid = await api('POST', `${vmPath({ node: vm.node, vmid: template })}/clone`, { newid: vm.vmid, name: spec.name, full: true, storage: config.storage });
      } catch (err) {
        if (err instanceof HypervisorError && /already exists/i.test(err.detail ?? '')) throw fail('UNAVAILABLE', err.detail); // re-read and continue
        throw err;
      }
      await waitForTask(taskRef(vm.node, upid), { onProgress: within(0, 50) });
    });
    progress(50);

    await step(async () => {
      const cfg = await readConfig(vm);
      const result = await api('POST', `${vmPath(vm)}/config`, {
        cores: spec.cores,
        memory: spec.memoryMb,
        ciuser: 'root',
        cipassword: spec.rootPassword,
        // Proxmox expects the keys percent-encoded inside the (again encoded) form body.
        sshkeys: spec.sshKeys ? encodeURIComponent(spec.sshKeys) : undefined,
        ipconfig0: ipConfig(spec),
        net0: netConfig(typeof cfg.net0 === 'string' ? cfg.net0 : undefined),
        digest: cfg.digest,
      });
      await waitIfTask(vm.node, result);
    });
    progress(60);

    await step(async () => {
      const cfg = await readConfig(vm);
      if (spec.diskGb * GiB > parseSize(typeof cfg.scsi0 === 'string' ? cfg.scsi0 : undefined)) {
        await waitIfTask(vm.node, await api('PUT', `${vmPath(vm)}/resize`, { disk: 'scsi0', size: `${spec.diskGb}G` }));
      }
    });
    progress(70);

    await step(() => configureFirewall(vm, spec));
    progress(80);

    await step(async () => {
      const state = await findVm(vm);
      if (state?.status === 'running') return;
      const upid = await api('POST', `${vmPath(vm)}/status/start`, {});
      await waitForTask(taskRef(vm.node, upid), { onProgress: within(80, 100) });
    });
    progress(100);
  }

  /** Anti-spoofing: the NIC may only use the addresses we assigned (ipset ipfilter-net0). */
  async function configureFirewall(vm: VmRef, spec: CreateServerSpec) {
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

  async function deleteServer(vm: VmRef, onProgress?: (p: number) => void) {
    guardTemplate(vm);
    const state = await findVm(vm);
    if (!state) return;
    if (state.lock) await waitForUnlock(vm);
    if (state.status === 'running') {
      await waitForTask(taskRef(vm.node, await api('POST', `${vmPath(vm)}/status/stop`, {})), { onProgress: (p) => onProgress?.(p / 2) });
    }
    let upid: unknown;
    try {
      upid = await api('DELETE', vmPath(vm), { purge: true, 'destroy-unreferenced-disks': true });
    } catch (err) {
      if (err instanceof HypervisorError && err.code === 'NOT_FOUND') return;
      throw err;
    }
    await waitForTask(taskRef(vm.node, upid), { onProgress: (p) => onProgress?.(50 + p / 2) });
  }

  async function power(vm: VmRef, action: PowerAction): Promise<TaskRef> {
    const state = await findVm(vm);
    if (!state) throw fail('NOT_FOUND', `VM ${vm.vmid} does not exist on ${vm.node}`);
    const running = state.status === 'running';
    // Proxmox fails "start" on a running VM; for us it is a harmless no-op (same for stopping a stopped one).
    if (action === 'start' && running) return noopTask(vm, 'qmstart');
    if ((action === 'stop' || action === 'shutdown') && !running) return noopTask(vm, action === 'stop' ? 'qmstop' : 'qmshutdown');
    const effective = action === 'reboot' && !running ? 'start' : action;
    return taskRef(vm.node, await api('POST', `${vmPath(vm)}/status/${effective}`, {}));
  }

  async function openConsole(vm: VmRef): Promise<ConsoleConnection> {
    const ws = loadWs();
    if (!ws) throw fail('UNAVAILABLE', 'console needs the ws package');
    // API tokens are often refused on the websocket; a console-only user with a ticket is the reliable way.
    let auth = tokenAuth;
    if (config.consoleUser && config.consolePassword) {
      const login = await api<{ ticket: string; CSRFPreventionToken: string }>('POST', '/access/ticket', { username: config.consoleUser, password: config.consolePassword });
      auth = { headers: { Cookie: `PVEAuthCookie=${login.ticket}`, CSRFPreventionToken: login.CSRFPreventionToken } };
    }
    const proxy = await api<{ port: number | string; ticket: string; user: string }>('POST', `${vmPath(vm)}/termproxy`, {}, auth);
    const wsUrl = `${baseUrl.replace(/^http/, 'ws')}${vmPath(vm)}/vncwebsocket?port=${encodeURIComponent(String(proxy.port))}&vncticket=${encodeURIComponent(proxy.ticket)}`;
    const headers = { ...auth.headers };
    delete headers.CSRFPreventionToken;
    const socket = new ws.WebSocket(wsUrl, { headers, agent: wsUrl.startsWith('wss:') ? pinnedAgent : undefined, handshakeTimeout: timeoutMs });

    const dataListeners: ((data: string) => void)[] = [];
    const closeListeners: (() => void)[] = [];
    const early: string[] = [];
    let closed = false;
    let ping: ReturnType<typeof setInterval> | undefined;
    const emit = (data: string) => {
      if (!data) return;
      if (dataListeners.length) for (const l of dataListeners) l(data);
      else early.push(data);
    };

    await new Promise<void>((resolve, reject) => {
      let authenticated = false;
      const timer = setTimeout(() => {
        socket.terminate();
        reject(fail('TIMEOUT', 'console handshake timed out'));
      }, timeoutMs);
      socket.on('open', () => socket.send(`${proxy.user}:${proxy.ticket}\n`));
      socket.on('message', (raw) => {
        const text = raw.toString();
        if (authenticated) return emit(text);
        clearTimeout(timer);
        if (!text.startsWith('OK')) {
          socket.close();
          return reject(fail('UNAVAILABLE', 'console authentication refused'));
        }
        authenticated = true;
        ping = setInterval(() => socket.readyState === 1 && socket.send('2'), 30_000);
        ping.unref?.();
        resolve();
        emit(text.slice(2));
      });
      socket.on('error', (err) => {
        clearTimeout(timer);
        reject(fail('UNAVAILABLE', `console: ${networkErrorText(err)}`));
      });
      socket.on('close', () => {
        clearTimeout(timer);
        clearInterval(ping);
        if (!authenticated) reject(fail('UNAVAILABLE', 'console closed during handshake'));
        if (!closed) {
          closed = true;
          for (const l of closeListeners) l();
        }
      });
    });

    return {
      write(data) {
        if (socket.readyState === 1) socket.send(`0:${Buffer.byteLength(data)}:${data}`);
      },
      resize(cols, rows) {
        if (socket.readyState === 1) socket.send(`1:${cols}:${rows}:`);
      },
      onData(listener) {
        dataListeners.push(listener);
        for (const d of early.splice(0)) listener(d);
      },
      onClose(listener) {
        if (closed) listener();
        else closeListeners.push(listener);
      },
      close() {
        clearInterval(ping);
        socket.close();
      },
    };
  }

  const hypervisor: Hypervisor = {
    kind: 'proxmox',

    async listNodes(): Promise<NodeInfo[]> {
      const nodes = await api<Record<string, unknown>[]>('GET', '/nodes');
      return nodes.map((n) => ({
        node: String(n.node),
        status: n.status === 'online' || n.status === 'offline' ? n.status : 'unknown',
        cpu: num(n.cpu),
        maxcpu: num(n.maxcpu),
        mem: num(n.mem),
        maxmem: num(n.maxmem),
        disk: num(n.disk),
        maxdisk: num(n.maxdisk),
        uptime: num(n.uptime),
      }));
    },

    createServer,
    deleteServer: (vm) => deleteServer(vm),

    async reinstallServer(spec, onProgress) {
      await deleteServer(spec, (p) => onProgress?.(Math.round(p * 0.2)));
      await createServer(spec, (p) => onProgress?.(Math.round(20 + p * 0.8)));
    },

    async resizeServer(vm, resources) {
      guardTemplate(vm);
      const cfg = await readConfig(vm);
      const current = parseSize(typeof cfg.scsi0 === 'string' ? cfg.scsi0 : undefined);
      const wanted = resources.diskGb * GiB;
      if (wanted < current) throw fail('INVALID', `disk ${resources.diskGb}G < current ${current / GiB}G`, 'Die Festplatte kann nicht verkleinert werden.');
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { cores: resources.cores, memory: resources.memoryMb, digest: cfg.digest }));
      if (wanted > current) await waitIfTask(vm.node, await api('PUT', `${vmPath(vm)}/resize`, { disk: 'scsi0', size: `${resources.diskGb}G` }));
    },

    power,
    taskStatus,
    waitForTask,

    async currentStatus(vm): Promise<VmStatus> {
      const s = await api<RawStatus>('GET', `${vmPath(vm)}/status/current`);
      return {
        status: s.status === 'running' ? 'running' : 'stopped',
        cpu: num(s.cpu),
        cpus: num(s.cpus),
        mem: num(s.mem),
        maxmem: num(s.maxmem),
        // qemu always reports 0 here unless the guest agent fills it in.
        disk: num(s.disk),
        maxdisk: num(s.maxdisk),
        netin: num(s.netin),
        netout: num(s.netout),
        uptime: num(s.uptime),
        ...(s.lock ? { lock: s.lock } : {}),
      };
    },

    async usageHistory(vm, timeframe): Promise<UsagePoint[]> {
      const rows = await api<Record<string, unknown>[]>('GET', `${vmPath(vm)}/rrddata`, { timeframe, cf: 'AVERAGE' });
      return rows
        .filter((r) => typeof r.time === 'number')
        .map((r) => ({
          time: num(r.time),
          cpu: num(r.cpu),
          mem: num(r.mem),
          maxmem: num(r.maxmem),
          netin: num(r.netin),
          netout: num(r.netout),
          diskread: num(r.diskread),
          diskwrite: num(r.diskwrite),
        }));
    },

    async createBackup(vm) {
      const upid = await api('POST', `/nodes/${encodeURIComponent(vm.node)}/vzdump`, {
        vmid: vm.vmid,
        storage: config.backupStorage,
        mode: 'snapshot',
        compress: 'zstd',
        remove: false,
      });
      return taskRef(vm.node, upid);
    },

    async listBackups(vm): Promise<BackupInfo[]> {
      const rows = await api<{ volid: string; size?: number; ctime?: number; vmid?: number | string }[]>(
        'GET',
        `/nodes/${encodeURIComponent(vm.node)}/storage/${encodeURIComponent(config.backupStorage)}/content`,
        { content: 'backup', vmid: vm.vmid },
      );
      return rows
        .filter((r) => r.vmid === undefined || Number(r.vmid) === vm.vmid)
        .map((r) => ({ volid: r.volid, size: num(r.size), ctime: num(r.ctime) }))
        .sort((a, b) => b.ctime - a.ctime);
    },

    async restoreBackup(vm, volid) {
      guardTemplate(vm);
      const state = await findVm(vm);
      const wasRunning = state?.status === 'running';
      // A restore overwrites the VM and refuses to run while it is running.
      if (wasRunning) await waitForTask(taskRef(vm.node, await api('POST', `${vmPath(vm)}/status/stop`, {})));
      const upid = await api('POST', `/nodes/${encodeURIComponent(vm.node)}/qemu`, {
        vmid: vm.vmid,
        archive: volid,
        force: true,
        storage: config.storage,
        start: wasRunning || undefined,
      });
      return taskRef(vm.node, upid);
    },

    async deleteBackup(vm, volid) {
      const result = await api('DELETE', `/nodes/${encodeURIComponent(vm.node)}/storage/${encodeURIComponent(config.backupStorage)}/content/${encodeURIComponent(volid)}`);
      await waitIfTask(vm.node, result);
    },

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

    async exec(vm, command) {
      const { pid } = await api<{ pid: number }>('POST', `${vmPath(vm)}/agent/exec`, { command });
      const started = Date.now();
      for (;;) {
        const s = await api<{ exited?: number | boolean; exitcode?: number; 'out-data'?: string }>('GET', `${vmPath(vm)}/agent/exec-status`, { pid });
        if (s.exited === 1 || s.exited === true) return { exitCode: num(s.exitcode), stdout: s['out-data'] ?? '' };
        if (Date.now() - started > taskTimeoutMs) throw fail('TIMEOUT', `exec pid ${pid} still running`);
        await sleep(pollIntervalMs);
      }
    },

    async setRootPassword(vm, password) {
      const state = await findVm(vm);
      if (!state) throw fail('NOT_FOUND', `VM ${vm.vmid} does not exist on ${vm.node}`);
      if (state.status === 'running') {
        await api('POST', `${vmPath(vm)}/agent/set-user-password`, { username: 'root', password });
        return;
      }
      // Stopped: cloud-init applies the new password on the next boot.
      const cfg = await readConfig(vm);
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { cipassword: password, digest: cfg.digest }));
    },

    async setSshKeys(vm, keys) {
      const cfg = await readConfig(vm);
      await waitIfTask(vm.node, await api('POST', `${vmPath(vm)}/config`, { sshkeys: encodeURIComponent(keys), digest: cfg.digest }));
    },

    openConsole,
  };
  return hypervisor;
}

function num(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

function networkErrorText(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  return e?.cause?.code ?? e?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

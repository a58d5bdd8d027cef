/**
 * The console: a tiny simulated serial terminal for xterm.js on the portal side. It does its own line
 * editing because a serial console has no local echo; commands go to shell-commands.ts, except package
 * changes, which go through the driver so the portal sees them.
 */
import type { ConsoleConnection, ExecResult, VmRef } from '../hypervisor.ts';
import { OS } from './guest-catalog.ts';
import { runCommand, words } from './shell-commands.ts';
import type { SimVmState } from './vm-state.ts';

const HELP = [
  'GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)',
  'Simulated console. Available commands:',
  '  help, uname -a, uptime, df -h, free -m, ip a, hostname, whoami, id, pwd, ls, date,',
  '  echo, cat /etc/os-release, apt-get install|remove <package>, systemctl status <unit>, clear, exit',
].join('\r\n');

export class SimConsole implements ConsoleConnection {
  private dataListeners: ((data: string) => void)[] = [];
  private closeListeners: (() => void)[] = [];
  private pending: string[] = [];
  private line = '';
  private lastCr = false;
  private escape: 0 | 1 | 2 = 0;
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  private cols = 80;
  private rows = 24;
  private readonly windows: boolean;

  constructor(private vm: VmRef, private state: SimVmState, private now: () => number, private execute: (argv: string[]) => Promise<{ result: ExecResult; state: SimVmState }>) {
    this.windows = OS[state.os].family === 'windows';
    this.emit(this.banner());
  }

  private get prompt() {
    return this.windows ? 'SAC>' : `root@${this.state.name}:~# `;
  }

  private banner() {
    const info = OS[this.state.os];
    const name = this.state.name;
    if (this.windows) {
      return `\r\nComputer is booting, SAC started and initialized.\r\n\r\nUse the "ch -?" command for information about using channels.\r\nUse the "?" command for general help.\r\n\r\n${this.prompt}`;
    }
    const issue = info.family === 'centos' ? `${info.issue}\r\nKernel ${info.kernel} on an x86_64\r\n` : `${info.issue} ${name} ttyS0\r\n`;
    const motd = info.family === 'ubuntu'
      ? `Welcome to ${info.issue} (GNU/Linux ${info.kernel} x86_64)\r\n\r\n * Documentation:  https://help.ubuntu.com\r\n * Support:        https://ubuntu.com/pro\r\n`
      : info.family === 'debian'
        ? `Linux ${name} ${info.kernel} ${info.kernelBuild} x86_64\r\n\r\nThe programs included with the Debian GNU/Linux system are free software;\r\nthe exact distribution terms for each program are described in the\r\nindividual files in /usr/share/doc/*/copyright.\r\n\r\nDebian GNU/Linux comes with ABSOLUTELY NO WARRANTY, to the extent\r\npermitted by applicable law.\r\n`
        : '';
    const last = new Date(this.now() - 3_600_000).toUTCString().replace(/ GMT$/, '').replace(',', '');
    return `\r\n${issue}\r\n${name} login: root (automatic login)\r\n\r\n${motd}Last login: ${last} on ttyS0\r\n${this.prompt}`;
  }

  private emit(data: string) {
    if (this.closed && data) return;
    if (!this.dataListeners.length) this.pending.push(data);
    else for (const l of this.dataListeners) l(data);
  }

  onData(listener: (data: string) => void) {
    this.dataListeners.push(listener);
    if (this.pending.length) {
      const buffered = this.pending.join('');
      this.pending = [];
      queueMicrotask(() => listener(buffered));
    }
  }

  onClose(listener: () => void) {
    if (this.closed) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  resize(cols: number, rows: number) {
    this.cols = cols;
    this.rows = rows;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    const listeners = this.closeListeners;
    this.closeListeners = [];
    setImmediate(() => listeners.forEach((l) => l()));
  }

  write(data: string) {
    if (this.closed) return;
    for (const ch of data) {
      if (this.escape === 1) {
        this.escape = ch === '[' || ch === 'O' ? 2 : 0;
        continue;
      }
      if (this.escape === 2) {
        if (ch >= '@' && ch <= '~') this.escape = 0;
        continue;
      }
      if (ch === '\n' && this.lastCr) {
        this.lastCr = false;
        continue;
      }
      this.lastCr = ch === '\r';
      if (ch === '\r' || ch === '\n') {
        this.emit('\r\n');
        const line = this.line;
        this.line = '';
        this.enqueue(line);
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line.length) {
          this.line = [...this.line].slice(0, -1).join('');
          this.emit('\b \b');
        }
      } else if (ch === '\x03') {
        this.line = '';
        this.emit(`^C\r\n${this.prompt}`);
      } else if (ch === '\x04') {
        if (!this.line) this.enqueue('exit');
      } else if (ch === '\x0c') {
        this.emit(`\x1b[H\x1b[2J${this.prompt}${this.line}`);
      } else if (ch === '\x1b') {
        this.escape = 1;
      } else if (ch >= ' ') {
        this.line += ch;
        this.emit(ch);
      }
    }
  }

  private enqueue(line: string) {
    this.queue = this.queue.then(() => this.run(line)).catch(() => {
      this.emit(`bash: internal error\r\n${this.prompt}`);
    });
  }

  private async run(line: string) {
    if (this.closed) return;
    const argv = words(line.trim());
    const cmd = argv[0] ?? '';
    if (this.windows) {
      if (cmd === 'exit') return this.exit();
      const out = cmd === '?' || cmd === 'help'
        ? 'ch                   Channel management commands.\r\ncmd                  Create a Command Prompt channel.\r\nd                    Dump the current kernel log.\r\nexit                 Exit SAC.\r\nid                   Display the computer identification information.\r\n'
        : cmd === 'id'
          ? `Computer Name: ${this.state.name.toUpperCase()}\r\nOS: ${OS[this.state.os].pretty}\r\n`
          : cmd ? 'The specified command was not recognized.\r\n' : '';
      this.emit(`${out}${this.prompt}`);
      return;
    }
    if (cmd === 'exit' || cmd === 'logout') return this.exit();
    if (cmd === 'clear') {
      this.emit(`\x1b[H\x1b[2J${this.prompt}`);
      return;
    }
    if (cmd === 'help') {
      this.emit(`${HELP}\r\n${this.prompt}`);
      return;
    }
    if (cmd === 'stty' && argv[1] === 'size') {
      this.emit(`${this.rows} ${this.cols}\r\n${this.prompt}`);
      return;
    }
    let out: string;
    if (cmd === 'apt' || cmd === 'apt-get' || cmd === 'dnf' || cmd === 'yum') {
      // Package changes go through the driver, so the portal sees them.
      try {
        const { result, state } = await this.execute(argv);
        out = result.stdout;
        this.state = state;
      } catch (e) {
        out = `E: ${e instanceof Error ? e.message : String(e)}\n`;
      }
    } else {
      out = runCommand(argv, { state: this.state, vmid: this.vm.vmid, at: this.now() }).stdout;
    }
    this.emit(`${out.replace(/\r?\n/g, '\r\n')}${this.prompt}`);
  }

  private exit() {
    this.emit('logout\r\n');
    this.close();
  }
}

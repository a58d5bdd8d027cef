import { useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { createConsoleToken, getConsoleServer } from '../api/console.ts';
import { useToken } from '../../../lib/session.ts';
import { paths } from '../../../config/paths.ts';

type Phase = 'connecting' | 'connected' | 'disconnected';

const phaseText: Record<Phase, string> = { connecting: 'Verbinde …', connected: 'Verbunden', disconnected: 'Verbindung getrennt' };
const phaseDot: Record<Phase, string> = { connecting: 'bg-amber-400', connected: 'bg-emerald-400', disconnected: 'bg-red-500' };

const theme = {
  background: '#0b0f14', foreground: '#d6dde6', cursor: '#e6edf3', cursorAccent: '#0b0f14', selectionBackground: '#2f4a6b',
  black: '#1c2128', red: '#f47067', green: '#57ab5a', yellow: '#c69026', blue: '#539bf5', magenta: '#b083f0', cyan: '#39c5cf', white: '#cdd9e5',
  brightBlack: '#636e7b', brightRed: '#ff938a', brightGreen: '#6bc46d', brightYellow: '#daaa3f', brightBlue: '#6cb6ff', brightMagenta: '#dcbdfb', brightCyan: '#56d4dd', brightWhite: '#e6edf3',
};

/**
 * xterm's DOM renderer injects two <style> elements (theme and cell sizes) while `open()` runs. The
 * CSP allows <style> elements only with the per-response nonce (meta csp-nonce, see main.tsx), and
 * xterm does not know get-nonce, so the elements created during `open()` get the nonce here.
 */
function withStyleNonce(run: () => void) {
  const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
  if (!nonce || nonce === '__CSP_NONCE__') return run();
  const original = document.createElement;
  document.createElement = function createElement(this: Document, tagName: string, options?: ElementCreationOptions) {
    const element = original.call(this, tagName, options);
    if (tagName.toLowerCase() === 'style') element.setAttribute('nonce', nonce);
    return element;
  } as typeof document.createElement;
  try {
    run();
  } finally {
    document.createElement = original;
  }
}

/** /console/:serverId — the server console in its own (pop-up) window; requires a stored token. */
export default function ConsolePage() {
  const { serverId = '' } = useParams();
  const token = useToken();
  if (!token) return <Navigate to={paths.login} replace />;
  return <ConsoleWindow serverId={serverId} />;
}

function ConsoleWindow({ serverId }: { serverId: string }) {
  const container = useRef<HTMLDivElement>(null);
  const terminal = useRef<Terminal | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const [phase, setPhase] = useState<Phase>('connecting');
  const [detail, setDetail] = useState('');
  const [serverName, setServerName] = useState('');

  useEffect(() => {
    document.title = serverName ? `Konsole – ${serverName}` : 'Konsole';
  }, [serverName]);

  useEffect(() => {
    const controller = new AbortController();
    getConsoleServer(serverId, controller.signal)
      .then((d) => setServerName(d.name))
      .catch(() => {});
    return () => controller.abort();
  }, [serverId]);

  const sendResize = useCallback(() => {
    const ws = socket.current;
    const term = terminal.current;
    if (ws?.readyState === WebSocket.OPEN && term) ws.send(JSON.stringify({ type: 'resize', cols: term.cols, rows: term.rows }));
  }, []);

  const connect = useCallback(async () => {
    socket.current?.close();
    socket.current = null;
    setPhase('connecting');
    setDetail('');
    let consoleToken: string;
    try {
      consoleToken = (await createConsoleToken(serverId)).token;
    } catch (err) {
      setPhase('disconnected');
      setDetail(err instanceof ApiRequestError ? err.message : 'Die Konsole ist derzeit nicht erreichbar.');
      return;
    }
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/api/servers/${encodeURIComponent(serverId)}/console?token=${encodeURIComponent(consoleToken)}`);
    socket.current = ws;
    ws.onopen = () => {
      if (socket.current !== ws) return;
      setPhase('connected');
      sendResize();
      terminal.current?.focus();
    };
    ws.onmessage = (event) => {
      if (socket.current === ws && typeof event.data === 'string') terminal.current?.write(event.data);
    };
    ws.onclose = (event) => {
      if (socket.current !== ws) return;
      socket.current = null;
      setPhase('disconnected');
      setDetail(event.reason || (event.code === 1006 ? 'Die Verbindung wurde unterbrochen.' : ''));
      terminal.current?.write('\r\n\x1b[90m[Verbindung getrennt]\x1b[0m\r\n');
    };
  }, [serverId, sendResize]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const term = new Terminal({
      theme,
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace',
      fontSize: 14,
      cursorBlink: true,
      scrollback: 5000,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    withStyleNonce(() => term.open(element));
    terminal.current = term;
    const refit = () => {
      try {
        fit.fit();
      } catch {
        // not measurable yet (hidden window)
      }
    };
    refit();
    const input = term.onData((data) => {
      const ws = socket.current;
      if (ws?.readyState === WebSocket.OPEN) ws.send(data);
    });
    const resized = term.onResize(() => sendResize());
    window.addEventListener('resize', refit);
    void connect();
    return () => {
      window.removeEventListener('resize', refit);
      input.dispose();
      resized.dispose();
      const ws = socket.current;
      socket.current = null;
      ws?.close();
      terminal.current = null;
      term.dispose();
    };
  }, [connect, sendResize]);

  const reconnect = () => {
    terminal.current?.reset();
    void connect();
  };

  return (
    <div className="fixed inset-0 flex flex-col bg-[#0b0f14] text-slate-200">
      <header className="flex min-w-0 items-center gap-3 whitespace-nowrap border-b border-slate-800 bg-[#11161d] px-3 py-1.5 text-sm">
        <span className="shrink-0 font-medium text-slate-100">Konsole{serverName ? ` – ${serverName}` : ''}</span>
        <span role="status" aria-live="polite" className="flex min-w-0 items-center gap-2 text-slate-300" title={detail || undefined}>
          <span className={`size-2 rounded-full ${phaseDot[phase]}`} aria-hidden="true" />
          {phaseText[phase]}
          {detail && <span className="truncate text-slate-400">– {detail}</span>}
        </span>
        {phase === 'disconnected' && (
          <button type="button" onClick={reconnect} className="ml-auto shrink-0 rounded-md border border-slate-600 px-2.5 py-1 text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400">
            Neu verbinden
          </button>
        )}
      </header>
      <div className="min-h-0 flex-1 p-2">
        <div ref={container} className="size-full" aria-label="Terminal" />
      </div>
    </div>
  );
}

// A shell in the container, in the browser: pods/exec over a WebSocket speaking
// v5.channel.k8s.io (v4 as fallback). The browser cannot send an Authorization header on a
// WebSocket, so the token rides in the sub-protocol base64url.bearer.authorization.k8s.io.<token>,
// which the API server takes out before it goes further. Channel bytes: 0 stdin, 1 stdout,
// 2 stderr, 3 the final Status, 4 resize.
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { bearerProtocol, websocketUrl } from '../api/client';
import { StatusBanner } from '../components/status-banner';

const STDIN = 0,
  STDOUT = 1,
  STDERR = 2,
  ERROR = 3,
  RESIZE = 4;

export function PodTerminal({ namespace, name, containers }: { namespace: string; name: string; containers: string[] }) {
  const host = useRef<HTMLDivElement>(null);
  const [container, setContainer] = useState(containers[0] ?? '');
  const [error, setError] = useState<string>();
  const [state, setState] = useState('connecting');

  useEffect(() => {
    const terminal = new Terminal({ rows: 24, cols: 100, convertEol: false, fontFamily: 'monospace', fontSize: 13 });
    terminal.open(host.current!);
    const query = new URLSearchParams({ container, stdin: 'true', stdout: 'true', stderr: 'true', tty: 'true' });
    query.append('command', 'sh');
    const url = websocketUrl(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/exec?${query}`);
    const socket = new WebSocket(url, ['v5.channel.k8s.io', 'v4.channel.k8s.io', bearerProtocol()]);
    socket.binaryType = 'arraybuffer';
    const encoder = new TextEncoder();
    const send = (channel: number, data: Uint8Array) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      const frame = new Uint8Array(data.length + 1);
      frame[0] = channel;
      frame.set(data, 1);
      socket.send(frame);
    };
    const resize = () => send(RESIZE, encoder.encode(JSON.stringify({ Width: terminal.cols, Height: terminal.rows })));
    socket.onopen = () => {
      setState('connected');
      resize();
      terminal.focus();
    };
    socket.onmessage = (message) => {
      const bytes = new Uint8Array(message.data as ArrayBuffer);
      if (bytes.length === 0) return;
      const payload = bytes.subarray(1);
      if (bytes[0] === STDOUT || bytes[0] === STDERR) terminal.write(payload);
      else if (bytes[0] === ERROR && payload.length > 0) {
        const status = JSON.parse(new TextDecoder().decode(payload)) as { status?: string; message?: string };
        if (status.status !== 'Success') setError(status.message ?? 'the command failed');
      }
    };
    let opened = false;
    socket.addEventListener('open', () => (opened = true));
    socket.onclose = (event) => {
      setState('closed');
      // A browser hides why a WebSocket was refused (the API's Status is in the HTTP answer).
      if (!opened) setError('the terminal could not connect: is the container running, and may you create pods/exec in this namespace?');
      else if (event.code !== 1000 && event.code !== 1005) setError(`the connection closed (${event.code}${event.reason ? `: ${event.reason}` : ''})`);
    };
    const input = terminal.onData((data) => send(STDIN, encoder.encode(data)));
    return () => {
      input.dispose();
      socket.close();
      terminal.dispose();
    };
  }, [namespace, name, container]);

  return (
    <div class="terminal">
      <div class="toolbar">
        {containers.length > 1 && (
          <select value={container} onChange={(e) => setContainer((e.target as HTMLSelectElement).value)} aria-label="terminal container">
            {containers.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
        <span class="muted small" data-state={state}>
          sh · {state}
        </span>
      </div>
      <StatusBanner message={error} />
      <div ref={host} class="xterm-host" aria-label="terminal" />
    </div>
  );
}

// Runs a probe's or hook's action (exec, httpGet, tcpSocket, sleep) against a container.
//
// Network checks must reach the pod on its own loopback, and the agent never dials the
// Docker bridge. So httpGet and tcpSocket run INSIDE the pod's network namespace: the agent
// execs a tiny client in the pod's sandbox (the pause image carries a static busybox at
// /bin/busybox), which shares the namespace with every app container. This works for app
// images without wget or nc (distroless, scratch) and needs no nsenter privileges. busybox's
// own -T timeout crashes in the static build, so `timeout -s KILL` bounds the client.
// Pods on the host network (process runtime, hostNetwork) share the agent's loopback: the
// agent dials them directly.
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { ContainerRuntime } from '../../runtime/runtime.js';
import type { Container, HTTPGetAction, Handler } from '../../../api/core/index.js';

export interface HandlerTarget {
  runtime: ContainerRuntime;
  containerId: string;
  /** Where network checks run; undefined → dial from the agent (host network). */
  sandboxId: string | undefined;
  container: Container;
}

export interface HandlerResult {
  ok: boolean;
  output: string;
}

const BUSYBOX = '/bin/busybox';
const MAX_OUTPUT = 10 * 1024;

export function resolvePort(container: Container, port: number | string): number {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  const named = container.ports?.find((p) => p.name === port);
  if (!named) throw new Error(`unable to find port "${port}" in container ${container.name}`);
  return named.containerPort;
}

/** Runs a command in a container; a timeout ends the session and counts as failure. */
export async function execIn(runtime: ContainerRuntime, id: string, cmd: string[], timeoutMs: number): Promise<HandlerResult> {
  const session = await runtime.exec(id, { cmd });
  let output = '';
  const collect = (chunk: Buffer): void => {
    if (output.length < MAX_OUTPUT) output += chunk.toString('utf8');
  };
  session.stdout.on('data', collect);
  session.stderr.on('data', collect);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const code = await Promise.race([session.exitCode(), timeout]);
    if (code === 'timeout') return { ok: false, output: `command timed out after ${timeoutMs / 1000}s` };
    return { ok: code === 0, output: output.trim().slice(0, MAX_OUTPUT) };
  } finally {
    clearTimeout(timer);
    session.close();
  }
}

function httpUrl(container: Container, action: HTTPGetAction): string {
  const scheme = (action.scheme ?? 'HTTP').toLowerCase();
  const host = action.host || '127.0.0.1';
  const path = action.path ? (action.path.startsWith('/') ? action.path : `/${action.path}`) : '/';
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${resolvePort(container, action.port)}${path}`;
}

function httpInSandbox(target: HandlerTarget, action: HTTPGetAction, timeoutMs: number): Promise<HandlerResult> {
  const seconds = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
  const headers = (action.httpHeaders ?? []).flatMap((h) => ['--header', `${h.name}: ${h.value}`]);
  const tls = action.scheme === 'HTTPS' ? ['--no-check-certificate'] : [];
  const cmd = [
    BUSYBOX,
    'timeout',
    '-s',
    'KILL',
    seconds,
    BUSYBOX,
    'wget',
    '-q',
    '-O',
    '/dev/null',
    '-Y',
    'off',
    ...tls,
    ...headers,
    httpUrl(target.container, action),
  ];
  return execIn(target.runtime, target.sandboxId!, cmd, timeoutMs + 1000);
}

function tcpInSandbox(target: HandlerTarget, host: string, port: number, timeoutMs: number): Promise<HandlerResult> {
  const seconds = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
  const cmd = [BUSYBOX, 'timeout', '-s', 'KILL', seconds, BUSYBOX, 'nc', host, String(port), '-e', BUSYBOX, 'true'];
  return execIn(target.runtime, target.sandboxId!, cmd, timeoutMs + 1000);
}

function httpDirect(container: Container, action: HTTPGetAction, timeoutMs: number): Promise<HandlerResult> {
  const url = httpUrl(container, action);
  const headers = Object.fromEntries((action.httpHeaders ?? []).map((h) => [h.name, h.value]));
  const send = url.startsWith('https:') ? httpsRequest : request;
  return new Promise((resolve) => {
    const req = send(url, { method: 'GET', headers, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? { ok: true, output: '' } : { ok: false, output: `HTTP probe failed with statuscode: ${code}` });
    });
    req.on('timeout', () => req.destroy(new Error(`Get "${url}": context deadline exceeded`)));
    req.on('error', (error) => resolve({ ok: false, output: `Get "${url}": ${error.message}` }));
    req.end();
  });
}

function tcpDirect(host: string, port: number, timeoutMs: number): Promise<HandlerResult> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve({ ok: true, output: '' });
    });
    socket.once('timeout', () => socket.destroy(new Error('i/o timeout')));
    socket.once('error', (error) => resolve({ ok: false, output: `dial tcp ${host}:${port}: ${error.message}` }));
  });
}

export async function runHandler(target: HandlerTarget, handler: Handler, timeoutMs: number): Promise<HandlerResult> {
  try {
    if (handler.exec) return await execIn(target.runtime, target.containerId, handler.exec.command ?? [], timeoutMs);
    if (handler.httpGet) {
      return target.sandboxId ? await httpInSandbox(target, handler.httpGet, timeoutMs) : await httpDirect(target.container, handler.httpGet, timeoutMs);
    }
    if (handler.tcpSocket) {
      const host = handler.tcpSocket.host || '127.0.0.1';
      const port = resolvePort(target.container, handler.tcpSocket.port);
      return target.sandboxId ? await tcpInSandbox(target, host, port, timeoutMs) : await tcpDirect(host, port, timeoutMs);
    }
    if (handler.sleep) {
      await new Promise((r) => setTimeout(r, Math.min(handler.sleep!.seconds * 1000, timeoutMs)));
      return { ok: true, output: '' };
    }
    return { ok: false, output: 'unsupported handler: none of exec, httpGet, tcpSocket or sleep is set' };
  } catch (error) {
    return { ok: false, output: (error as Error).message };
  }
}

// Reaching a port inside a pod's network namespace for port-forward.
//
// Docker pods: we run `nc 127.0.0.1 <port>` INSIDE the pod's sandbox through the runtime's exec
// and use its stdin/stdout as the connection. Traffic never touches the docker bridge (it stays
// on the pod's own loopback), and it needs nothing but the runtime interface: it works with a
// remote DOCKER_HOST, an unprivileged agent, and any engine behind ContainerRuntime. The sandbox
// is used rather than an app container because it is ours: the pause image is built from a
// static busybox, so `/bin/busybox nc` is always there, whatever the app image holds.
// The alternative, `nsenter -t <sandbox pid> -n` plus a local socket, saves the exec round trip
// per connection but needs root (CAP_SYS_ADMIN), the engine on this very host, and its PID
// namespace — none of which an agent can count on.
// The price of nc: it exits when the pod side stops sending, so a server that half-closes before
// it has read the whole request loses the rest of it (HTTP servers do not do that; a raw socket
// relay such as nsenter's would not). An agent that can use nsenter may pass its own PortDialer.
//
// Pods on the node's network (process runtime, hostNetwork): a TCP connection to 127.0.0.1.

import { connect } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { ResolvedSandbox } from './resolver.js';

/** One forwarded connection into the pod. */
export interface PodConnection {
  /** Bytes for the pod; end() half-closes the connection. */
  toPod: Writable;
  /** Bytes from the pod; ends when the pod side closes. */
  fromPod: Readable;
  /** After fromPod has ended: why the connection failed, or undefined if it did not. */
  failure(): Promise<string | undefined>;
  close(): void;
}

export type PortDialer = (target: ResolvedSandbox, port: number) => Promise<PodConnection>;

/** The command run in the sandbox; busybox's nc half-closes the socket at stdin's EOF. */
export function netcatCommand(port: number): string[] {
  return ['/bin/busybox', 'nc', '127.0.0.1', String(port)];
}

const MAX_ERROR_BYTES = 4096;

export async function execDial(target: ResolvedSandbox, port: number, command = netcatCommand): Promise<PodConnection> {
  const session = await target.runtime.exec(target.sandboxId, { cmd: command(port), stdin: true });
  if (!session.stdin) throw new Error('the runtime gave the exec no stdin');
  let stderr = '';
  session.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < MAX_ERROR_BYTES) stderr += chunk.toString('utf8');
  });
  session.stdin.on('error', () => undefined);
  return {
    toPod: session.stdin,
    fromPod: session.stdout,
    async failure() {
      const code = await session.exitCode().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (code === 0) return undefined;
      const why = stderr.trim();
      return typeof code === 'string' ? code : why || `${command(port).join(' ')} exited with code ${code}`;
    },
    close: () => session.close(),
  };
}

export function hostDial(port: number, host = '127.0.0.1'): Promise<PodConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, allowHalfOpen: true });
    let failed: string | undefined;
    socket.once('connect', () => {
      socket.on('error', (error) => (failed = error.message));
      resolve({
        toPod: socket,
        fromPod: socket,
        failure: async () => failed,
        close: () => socket.destroy(),
      });
    });
    socket.once('error', reject);
  });
}

export const defaultPortDialer: PortDialer = (target, port) => (target.dialDirect ? hostDial(port) : execDial(target, port));

// The agent's streaming paths, laid out as the kubelet's so that anything that knows how to reach
// a kubelet reaches an agent:
//   /containerLogs/{namespace}/{pod}/{container}
//   /exec/{namespace}/{pod}[/{uid}]/{container}?command=...&input=1&output=1&error=1&tty=1
//   /attach/{namespace}/{pod}[/{uid}]/{container}?input=1&output=1&error=1&tty=1
//   /portForward/{namespace}/{pod}[/{uid}]
//   /signal/{namespace}/{pod}/{container}?signal=SIGUSR1        (Drover's own)

import { flag } from './query.js';
import { badRequest } from './status.js';
import type { RequestedStreams } from './websocket-channel.js';

export type RouteKind = 'containerLogs' | 'exec' | 'attach' | 'portForward' | 'signal';

export interface StreamingRoute {
  kind: RouteKind;
  namespace: string;
  pod: string;
  uid?: string;
  /** Absent only for portForward. */
  container?: string;
}

function route(kind: RouteKind, namespace: string, pod: string, rest: string[]): StreamingRoute | undefined {
  const base = { kind, namespace, pod };
  if (kind === 'portForward') {
    if (rest.length === 0) return base;
    return rest.length === 1 ? { ...base, uid: rest[0]! } : undefined;
  }
  if (rest.length === 1) return { ...base, container: rest[0]! };
  // exec and attach also take the pod's uid, as the kubelet's do.
  if (rest.length === 2 && (kind === 'exec' || kind === 'attach')) return { ...base, uid: rest[0]!, container: rest[1]! };
  return undefined;
}

export function parseStreamingPath(pathname: string): StreamingRoute | undefined {
  let parts: string[];
  try {
    parts = pathname
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const [kind, namespace, pod, ...rest] = parts;
  if (!namespace || !pod) return undefined;
  if (kind !== 'containerLogs' && kind !== 'exec' && kind !== 'attach' && kind !== 'portForward' && kind !== 'signal') return undefined;
  return route(kind, namespace, pod, rest);
}

/** The streams an exec or attach asks for; the kubelet's names (input, output, error) or the API's. */
export function requestedStreams(query: URLSearchParams): RequestedStreams {
  const wanted = {
    stdin: flag(query, 'input', 'stdin'),
    stdout: flag(query, 'output', 'stdout'),
    stderr: flag(query, 'error', 'stderr'),
    tty: flag(query, 'tty'),
  };
  if (!wanted.stdin && !wanted.stdout && !wanted.stderr) throw badRequest('you must specify at least 1 of stdin, stdout, stderr');
  return wanted;
}

export function execCommand(query: URLSearchParams): string[] {
  const command = query.getAll('command');
  if (command.length === 0) throw badRequest('you must specify at least one command for the container');
  return command;
}

// POST /signal/{namespace}/{pod}/{container}?signal=SIGUSR1: the original executor's messages
// to a running task, which Kubernetes lacks. The runtime delivers the signal to the container's
// main process.

import { constants } from 'node:os';
import type { ServerResponse } from 'node:http';
import type { ContainerResolver } from './resolver.js';
import { badRequest, successStatus, toStreamingError } from './status.js';

/** `USR1`, `SIGUSR1`, `sigusr1` and `10` all name SIGUSR1; anything else is refused. */
export function normalizeSignal(given: string | null): string {
  if (!given) throw badRequest('signal: Required value: name the signal to send, e.g. signal=SIGTERM');
  const known = constants.signals as Record<string, number>;
  if (/^\d+$/.test(given)) {
    const name = Object.keys(known).find((key) => known[key] === Number(given));
    if (name) return name;
  } else {
    const upper = given.toUpperCase();
    const name = upper.startsWith('SIG') ? upper : `SIG${upper}`;
    if (known[name] !== undefined) return name;
  }
  throw badRequest(`signal: Unsupported value: "${given}": must be a signal name such as SIGTERM, SIGHUP or SIGUSR1`);
}

export async function serveSignal(
  res: ServerResponse,
  target: { namespace: string; pod: string; container: string },
  query: URLSearchParams,
  resolver: ContainerResolver,
): Promise<void> {
  const signal = normalizeSignal(query.get('signal'));
  const resolved = await resolver.resolve(target.namespace, target.pod, target.container);
  try {
    await resolved.runtime.killContainer(resolved.containerId, signal);
  } catch (error) {
    throw toStreamingError(error);
  }
  const body = JSON.stringify({ ...successStatus(), message: `sent ${signal} to container "${target.container}" in pod "${target.pod}"`, code: 200 });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

// GET /containerLogs/{namespace}/{pod}/{container}: a container's log as plain text, with the
// query parameters of the kubelet (and of pods/log): follow, previous, timestamps, tailLines,
// sinceSeconds, sinceTime, limitBytes.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { LogOptions } from '../runtime/runtime.js';
import { previousNotFound, type ContainerResolver } from './resolver.js';
import { flag, integer } from './query.js';
import { badRequest, toStreamingError } from './status.js';

export interface LogRequest {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  since?: Date;
}

export function parseLogRequest(query: URLSearchParams, now = Date.now()): LogRequest {
  const sinceSeconds = integer(query, 'sinceSeconds', 1);
  const sinceTime = query.get('sinceTime');
  if (sinceSeconds !== undefined && sinceTime) throw badRequest('at most one of sinceTime or sinceSeconds may be specified');
  const request: LogRequest = {
    follow: flag(query, 'follow'),
    previous: flag(query, 'previous'),
    timestamps: flag(query, 'timestamps'),
  };
  const tailLines = integer(query, 'tailLines', 0);
  if (tailLines !== undefined) request.tailLines = tailLines;
  const limitBytes = integer(query, 'limitBytes', 1);
  if (limitBytes !== undefined) request.limitBytes = limitBytes;
  if (sinceSeconds !== undefined) request.since = new Date(now - sinceSeconds * 1000);
  if (sinceTime) {
    const parsed = new Date(sinceTime);
    if (Number.isNaN(parsed.getTime())) throw badRequest(`sinceTime: Invalid value: "${sinceTime}": must be an RFC3339 time`);
    request.since = parsed;
  }
  return request;
}

/** Copies at most `limit` bytes (all without a limit); resolves when done or the client left. */
async function copyLimited(from: Readable, res: ServerResponse, limit: number | undefined): Promise<void> {
  let left = limit ?? Infinity;
  // A client that leaves ends a follow, which would otherwise wait for lines forever.
  res.once('close', () => from.destroy());
  try {
    for await (const chunk of from) {
      const bytes = chunk as Buffer;
      const piece = bytes.length > left ? bytes.subarray(0, left) : bytes;
      left -= piece.length;
      if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      if (left <= 0 || res.destroyed) break;
    }
  } catch {
    // the log stream was cut (client gone, or the engine dropped it): what was sent stands
  } finally {
    from.destroy();
  }
}

export async function serveContainerLogs(
  req: IncomingMessage,
  res: ServerResponse,
  target: { namespace: string; pod: string; container: string },
  query: URLSearchParams,
  resolver: ContainerResolver,
): Promise<void> {
  const request = parseLogRequest(query);
  const resolved = await resolver.resolve(target.namespace, target.pod, target.container);
  const id = request.previous ? resolved.previousContainerId : resolved.containerId;
  if (!id) throw previousNotFound(target.container, target.pod);
  const options: LogOptions = { follow: request.follow, timestamps: request.timestamps };
  if (request.tailLines !== undefined) options.tail = request.tailLines;
  if (request.since) options.since = request.since;
  let stream: Readable;
  try {
    stream = await resolved.runtime.logs(id, options);
  } catch (error) {
    throw toStreamingError(error);
  }
  req.socket.setNoDelay(true);
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  await copyLimited(stream, res, request.limitBytes);
  res.end();
}

// Backpressure for responses: a client that reads slowly, or not at all, costs the server a
// bounded amount of memory. Bodies are produced only as the socket takes them (res.write()
// returning false means wait for 'drain'), and a response that makes no progress for
// WRITE_STALL_MS is destroyed. Before this, 100 clients that asked for a 14 MB list and did not
// read grew the server's RSS by 1.4 GB: every response was queued in full in user space.
import type { ServerResponse } from 'node:http';

/**
 * How long a response may wait for its client to take more. A list stream also holds back
 * history compaction, a queued body holds its memory, so a stalled client is cut, not waited for.
 */
export const WRITE_STALL_MS = 60_000;

/** Resolves true when the response can take more; false when it is gone or stalled. */
export function drained(res: ServerResponse, timeoutMs: number): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    const timer = setTimeout(onClose, timeoutMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/**
 * Writes the chunks `next` produces, asking for the next one only once the socket has room for
 * it, so at most one chunk per response waits in memory. A client that takes nothing for
 * `stallMs` is cut. Returns whether every chunk was written (the caller then ends the response).
 */
export async function writeAsRead(res: ServerResponse, next: () => string | Uint8Array | undefined, stallMs = WRITE_STALL_MS): Promise<boolean> {
  for (let chunk = next(); chunk !== undefined; chunk = next()) {
    if (res.destroyed) return false;
    if (!res.write(chunk) && !(await drained(res, stallMs))) {
      res.destroy();
      return false;
    }
  }
  return !res.destroyed;
}

/**
 * Ends a response whose body is already in memory (one object, a Status, a table). If the socket
 * cannot take it all at once, the rest waits in memory: the client gets `stallMs` to read it.
 *
 * Over TLS nearly every response is still queued right after end(): the encrypted write completes
 * later in the same turn of the event loop. A timer and two listeners for each of them were
 * 1.5-2 % of the server thread's CPU in a create load (perf), so the ended responses are looked
 * at once more when the turn's writes are done, and only one still queued then gets its timer.
 */
export function endWithin(res: ServerResponse, body: string | Uint8Array, stallMs = WRITE_STALL_MS): void {
  res.end(body);
  if (res.writableLength === 0) return;
  if (stillQueued.push(res) === 1) setImmediate(armStalledEnds);
  stallLimits.push(stallMs);
}

/** Responses ended this turn with bytes still queued, and the stall limit of each. */
let stillQueued: ServerResponse[] = [];
let stallLimits: number[] = [];

function armStalledEnds(): void {
  const responses = stillQueued;
  const limits = stallLimits;
  stillQueued = [];
  stallLimits = [];
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i]!;
    if (res.writableLength > 0 && !res.destroyed) destroyUnlessFinished(res, limits[i]!);
  }
}

function destroyUnlessFinished(res: ServerResponse, stallMs: number): void {
  const timer = setTimeout(() => res.destroy(), stallMs);
  const disarm = () => clearTimeout(timer);
  res.once('finish', disarm);
  res.once('close', disarm);
}

/**
 * For responses written as things happen (watch events): returns a function to call after a
 * write that returned false. Unless the socket drains within `stallMs`, the response is destroyed.
 */
export function stallDeadline(res: ServerResponse, stallMs = WRITE_STALL_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  const disarm = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  res.on('drain', disarm);
  res.once('close', disarm);
  return () => {
    timer ??= setTimeout(() => res.destroy(), stallMs);
  };
}

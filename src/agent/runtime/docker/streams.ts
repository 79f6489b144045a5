// Logs and attach, plus the stream plumbing exec shares: a hijacked engine
// connection turned into stdin/stdout/stderr.

import { PassThrough, Writable, type Duplex, type Readable } from 'node:stream';
import type { DockerContext } from './client.js';
import { demuxMerged, demuxSplit, forward } from './demux.js';
import { mapContainerError } from './engine-errors.js';
import { inspectContainer } from './containers.js';
import { NotRunningError, RuntimeError } from '../errors.js';
import type { AttachOptions, LogOptions, StreamSession } from '../runtime.js';

/** Docker's `since`: seconds since the epoch with a nanosecond fraction. */
export function sinceParam(since: Date): string {
  const ms = since.getTime();
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms - seconds * 1000) * 1_000_000;
  return `${seconds}.${String(nanos).padStart(9, '0')}`;
}

function dialStream(ctx: DockerContext, path: string, options: Record<string, unknown>): Promise<Readable> {
  return new Promise((resolve, reject) => {
    ctx.docker.modem.dial(
      { path, method: 'GET', options, isStream: true, statusCodes: { 200: true, 404: 'no such container', 500: 'server error' } },
      (err, result) => (err ? reject(err) : resolve(result as Readable)),
    );
  });
}

export async function logs(ctx: DockerContext, id: string, opts: LogOptions = {}): Promise<Readable> {
  // A TTY container's log is one raw stream; any other is multiplexed.
  const { tty } = await inspectContainer(ctx, id);
  let raw: Readable;
  try {
    raw = await dialStream(ctx, `/containers/${encodeURIComponent(id)}/logs?`, {
      follow: opts.follow ?? false,
      stdout: opts.stdout ?? true,
      stderr: opts.stderr ?? true,
      timestamps: opts.timestamps ?? false,
      tail: opts.tail === undefined ? 'all' : String(Math.max(0, Math.floor(opts.tail))),
      ...(opts.since ? { since: sinceParam(opts.since) } : {}),
    });
  } catch (err) {
    throw mapContainerError(err, id, (message) => new RuntimeError(`logs of ${id}: ${message}`, { engineMessage: message, cause: err }));
  }
  if (!tty) return demuxMerged(raw);
  const out = new PassThrough();
  forward(raw, out);
  return raw.pipe(out);
}

/** Writes go to the engine; ending it half-closes the connection, which the process reads as EOF. */
function stdinWriter(socket: Duplex): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      socket.write(chunk, (err) => done(err ?? null));
    },
    final(done) {
      socket.end();
      done();
    },
  });
}

/** The streams of a hijacked connection; with a TTY the engine sends one raw stream. */
export function sessionStreams(socket: Duplex, tty: boolean, withStdin: boolean): Pick<StreamSession, 'stdin' | 'stdout' | 'stderr'> {
  const stdin = withStdin ? stdinWriter(socket) : undefined;
  if (!tty) return { ...(stdin ? { stdin } : {}), ...demuxSplit(socket) };
  const stdout = new PassThrough();
  forward(socket, stdout);
  socket.pipe(stdout);
  const stderr = new PassThrough();
  stderr.end();
  return { ...(stdin ? { stdin } : {}), stdout, stderr };
}

export async function attach(ctx: DockerContext, id: string, opts: AttachOptions): Promise<StreamSession> {
  const status = await inspectContainer(ctx, id);
  if (status.state !== 'running') throw new NotRunningError(`attach to ${id}: container is ${status.state}`);
  const container = ctx.docker.getContainer(id);
  let socket: Duplex;
  try {
    socket = (await container.attach({
      stream: true,
      hijack: true,
      stdin: opts.stdin ?? false,
      stdout: opts.stdout ?? true,
      stderr: opts.stderr ?? true,
    })) as Duplex;
  } catch (err) {
    throw mapContainerError(err, id, (message) => new RuntimeError(`attach to ${id}: ${message}`, { engineMessage: message, cause: err }));
  }
  return {
    ...sessionStreams(socket, status.tty, opts.stdin ?? false),
    resize: async ({ cols, rows }) => {
      try {
        await container.resize({ h: rows, w: cols });
      } catch (err) {
        throw mapContainerError(err, id, (message) => new RuntimeError(`resize ${id}: ${message}`, { engineMessage: message, cause: err }));
      }
    },
    close: () => socket.destroy(),
  };
}

// `logs` and `attach` over the container's log file.

import { constants, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { containerDir, type ProcessContext } from './context.js';
import { LogFormatter, parseAll, sinceString, tailEntries, type LogEntry } from './log-format.js';
import { LogTailer, openLog } from './log-tail.js';
import { LOG, STDIN_FIFO } from './records.js';
import { inspectContainer, loadFiles } from './state.js';
import { NotRunningError, RuntimeError } from '../errors.js';
import type { AttachOptions, LogOptions, StreamSession } from '../runtime.js';

async function readOld(path: string): Promise<Buffer> {
  return readFile(path).catch(() => Buffer.alloc(0));
}

export async function logs(ctx: ProcessContext, id: string, opts: LogOptions = {}): Promise<Readable> {
  await loadFiles(ctx, id); // ContainerNotFound
  const path = join(containerDir(ctx, id), LOG);
  // Open the current file first and read it only up to its size now: what follows
  // belongs to the follower, so no entry is read twice or lost to a rotation.
  const start = await openLog(path);
  const old = await readOld(`${path}.1`);
  const current = Buffer.alloc(start.pos);
  if (start.file && start.pos > 0) await start.file.read(current, 0, start.pos, 0);
  const fmt = new LogFormatter({
    stdout: opts.stdout ?? true,
    stderr: opts.stderr ?? true,
    timestamps: opts.timestamps ?? false,
    ...(opts.since ? { since: sinceString(opts.since) } : {}),
  });
  const history = fmt.formatAll(tailEntries([...parseAll(old), ...parseAll(current)], opts.tail));
  if (!opts.follow) {
    await start.file?.close();
    return Readable.from(history.length > 0 ? [history] : [], { objectMode: false });
  }
  let tailer: LogTailer | undefined;
  const out = new Readable({
    read: () => tailer?.resume(),
    destroy: (err, cb) => {
      tailer?.close();
      cb(err);
    },
  });
  if (history.length > 0) out.push(history);
  tailer = new LogTailer(ctx, id, start, {
    entries: (entries) => {
      const chunk = fmt.formatAll(entries);
      return chunk.length === 0 || out.push(chunk);
    },
    end: (err) => (err ? out.destroy(err) : out.push(null)),
  });
  return out;
}

/** Writes reach the supervisor through the FIFO; ending the stream is the client leaving. */
async function fifoWriter(path: string): Promise<Writable> {
  // Non-blocking: an open that waited for a reader would hold a libuv worker thread
  // for as long as the supervisor is gone. ENXIO (no reader) is retried briefly: the
  // supervisor reopens its end after each client.
  let fd: number | undefined;
  for (let i = 0; fd === undefined; i++) {
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENXIO' || i >= 50) throw err;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const socket = new Socket({ fd, readable: false, writable: true });
  socket.on('error', () => socket.destroy());
  socket.on('finish', () => socket.destroy());
  return socket;
}

export async function attach(ctx: ProcessContext, id: string, opts: AttachOptions): Promise<StreamSession> {
  const status = await inspectContainer(ctx, id);
  if (status.state !== 'running') throw new NotRunningError(`attach to ${id}: container is ${status.state}`);
  const { config } = await loadFiles(ctx, id);
  let stdin: Writable | undefined;
  if (opts.stdin) {
    if (!config.spec.stdin) throw new RuntimeError(`attach to ${id}: the container was not created with stdin`);
    try {
      stdin = await fifoWriter(join(containerDir(ctx, id), STDIN_FIFO));
    } catch (err) {
      throw new RuntimeError(`attach to ${id}: open stdin: ${(err as Error).message}`, { cause: err });
    }
  }
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const want = { stdout: opts.stdout ?? true, stderr: opts.stderr ?? true };
  // Output from now on, as Docker's attach without logs.
  const tailer = new LogTailer(ctx, id, await openLog(join(containerDir(ctx, id), LOG)), {
    entries: (entries: LogEntry[]) => {
      for (const e of entries) {
        if (!want[e.stream]) continue;
        const target = e.stream === 'stdout' ? stdout : stderr;
        if (!target.destroyed) target.write(e.partial ? e.content : Buffer.concat([e.content, Buffer.from('\n')]));
      }
      return true;
    },
    end: () => {
      stdout.end();
      stderr.end();
    },
  });
  return {
    ...(stdin ? { stdin } : {}),
    stdout,
    stderr,
    resize: async () => undefined,
    close: () => {
      tailer.close();
      stdin?.end();
      stdout.end();
      stderr.end();
    },
  };
}

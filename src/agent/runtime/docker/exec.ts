// Exec in a running container: a hijacked connection for the streams, and the
// exec's inspect record for the exit code.

import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Backoff } from '../../../util/backoff.js';
import type { DockerContext } from './client.js';
import { mapContainerError } from './engine-errors.js';
import { sessionStreams } from './streams.js';
import { ExecFailedError, NotRunningError } from '../errors.js';
import type { ExecOptions, ExecSession } from '../runtime.js';

async function createExec(ctx: DockerContext, id: string, opts: ExecOptions): Promise<Docker.Exec> {
  try {
    return await ctx.docker.getContainer(id).exec({
      Cmd: opts.cmd,
      AttachStdin: opts.stdin ?? false,
      AttachStdout: true,
      AttachStderr: true,
      Tty: opts.tty ?? false,
      ...(opts.env ? { Env: Object.entries(opts.env).map(([k, v]) => `${k}=${v}`) } : {}),
      ...(opts.workingDir ? { WorkingDir: opts.workingDir } : {}),
      ...(opts.user ? { User: opts.user } : {}),
    });
  } catch (err) {
    throw mapContainerError(err, id, (message, statusCode) => {
      const o = { engineMessage: message, cause: err, ...(statusCode === undefined ? {} : { statusCode }) };
      return statusCode === 409 ? new NotRunningError(`exec in ${id}: ${message}`, o) : new ExecFailedError(`exec in ${id}: ${message}`, o);
    });
  }
}

/**
 * The exec record may still say Running for a moment after the stream closed, and a
 * consumer that stops reading keeps the stream open: poll, waking early on close.
 */
async function waitExitCode(exec: Docker.Exec, closed: Promise<void>): Promise<number> {
  const polls = new Backoff({ initialMs: 20, maxMs: 500 });
  let endedWithoutCode = 0;
  // The stream's end is the cue to look again at once; after that, only the back-off paces us
  // (racing an already-settled promise would poll the engine in a tight loop).
  let streamOpen = true;
  const streamEnded = closed.then(() => {
    streamOpen = false;
  });
  for (;;) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    // Not running and no code: the engine lost the process (its container died).
    if (!info.Running && ++endedWithoutCode > 10) {
      throw new ExecFailedError(`exec ${exec.id} ended without an exit code`);
    }
    const delay = polls.next();
    await (streamOpen ? Promise.race([streamEnded, sleep(delay)]) : sleep(delay));
  }
}

export async function exec(ctx: DockerContext, id: string, opts: ExecOptions): Promise<ExecSession> {
  const instance = await createExec(ctx, id, opts);
  const tty = opts.tty ?? false;
  let socket: Duplex;
  try {
    socket = (await instance.start({ hijack: true, stdin: opts.stdin ?? false, Detach: false, Tty: tty })) as Duplex;
  } catch (err) {
    throw mapContainerError(err, id, (message) => new ExecFailedError(`start exec in ${id}: ${message}`, { engineMessage: message, cause: err }));
  }
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let exitCode: Promise<number> | undefined;
  return {
    id: instance.id,
    ...sessionStreams(socket, tty, opts.stdin ?? false),
    exitCode: () =>
      (exitCode ??= waitExitCode(instance, closed).catch((err: unknown) => {
        throw mapContainerError(err, id, (message) => new ExecFailedError(`exec ${instance.id}: ${message}`, { engineMessage: message, cause: err }));
      })),
    resize: async ({ cols, rows }) => {
      try {
        await instance.resize({ h: rows, w: cols });
      } catch (err) {
        throw mapContainerError(err, id, (message) => new ExecFailedError(`resize exec ${instance.id}: ${message}`, { engineMessage: message, cause: err }));
      }
    },
    close: () => socket.destroy(),
  };
}

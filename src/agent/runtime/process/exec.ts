// exec: a command alongside the container's main process, with its environment,
// working directory, user and cgroups. The session belongs to the agent (as a
// `docker exec` session belongs to its client); a container that ends takes its
// exec'd processes with it when it has a cgroup.

import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { constants } from 'node:os';
import { cgroupDirs } from './cgroups.js';
import type { ProcessContext } from './context.js';
import { inspectContainer, loadFiles } from './state.js';
import { spawnExecHelper } from './supervisor.js';
import { ExecFailedError, NotRunningError } from '../errors.js';
import type { ExecOptions, ExecSession } from '../runtime.js';

function signalCode(signal: NodeJS.Signals | null): number {
  const n = signal ? constants.signals[signal] : undefined;
  return n === undefined ? 1 : 128 + n;
}

export async function exec(ctx: ProcessContext, id: string, opts: ExecOptions): Promise<ExecSession> {
  const status = await inspectContainer(ctx, id);
  if (status.state !== 'running') throw new NotRunningError(`exec in ${id}: container ${id} is not running`);
  if (opts.tty) throw new ExecFailedError(`exec in ${id}: a TTY is not supported by the process runtime; run the command without one`);
  if (opts.cmd.length === 0) throw new ExecFailedError(`exec in ${id}: no command given`);
  const { config, launch } = await loadFiles(ctx, id);
  const user = opts.user || config.spec.securityContext?.user;
  const child = await spawnExecHelper(
    ctx,
    {
      cgroupDirs: cgroupDirs(launch?.cgroups ?? {}),
      ...(user ? { user } : {}),
      cwd: opts.workingDir || launch?.cwd || '/',
      argv: opts.cmd,
      env: { ...(config.spec.env ?? {}), ...(opts.env ?? {}) },
    },
    opts.stdin ?? false,
  );
  const exitCode = new Promise<number>((resolve, reject) => {
    child.once('error', (err) => reject(new ExecFailedError(`exec in ${id}: ${err.message}`, { engineMessage: err.message, cause: err })));
    // 'close': the process has ended and its output has been read.
    child.once('close', (code, signal) => resolve(code ?? signalCode(signal)));
  });
  exitCode.catch(() => undefined);
  // A command that exits without reading its input closes the pipe under the writer.
  child.stdin?.on('error', () => undefined);
  const stdout = child.stdout ?? new PassThrough().end();
  const stderr = child.stderr ?? new PassThrough().end();
  return {
    id: randomBytes(32).toString('hex'),
    ...(child.stdin ? { stdin: child.stdin as Writable } : {}),
    stdout: stdout as Readable,
    stderr: stderr as Readable,
    exitCode: () => exitCode,
    resize: async () => undefined,
    close: () => {
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  };
}

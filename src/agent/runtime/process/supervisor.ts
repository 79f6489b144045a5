// Starting the supervisor (run mode) and the exec helper (exec mode) of
// supervisor-perl.ts. The container's environment travels on fd 3, never through
// perl's own environment.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { DEFAULT_PATH, type ProcessContext } from './context.js';
import { SUPERVISOR_PERL } from './supervisor-perl.js';
import { RuntimeUnavailableError, StartFailedError } from '../errors.js';

const HANDSHAKE_TIMEOUT_MS = 15_000;
const HASH = createHash('sha256').update(SUPERVISOR_PERL).digest('hex').slice(0, 12);

export interface SupervisorArgs {
  /** Cgroup directories the process joins before it executes the command. */
  cgroupDirs: string[];
  user?: string;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
}

export interface RunArgs extends SupervisorArgs {
  dir: string;
  memoryCgroup?: string;
  stdin: boolean;
  stdinOnce: boolean;
  maxLogBytes: number;
}

/** Installs in flight, by path: the first starts of several containers share one write. */
const writing = new Map<string, Promise<string>>();

/** Writes the script once per version; running supervisors keep the copy they loaded. */
export async function installSupervisor(stateDir: string): Promise<string> {
  const path = join(stateDir, 'bin', `supervisor-${HASH}.pl`);
  if (
    await stat(path).then(
      () => true,
      () => false,
    )
  )
    return path;
  let write = writing.get(path);
  if (!write) {
    write = writeSupervisor(path).finally(() => writing.delete(path));
    writing.set(path, write);
  }
  return write;
}

async function writeSupervisor(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  // A name of its own: another agent's process may be writing the same script into the same folder.
  const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(tmp, SUPERVISOR_PERL, { mode: 0o644 });
  await rename(tmp, path);
  return path;
}

function commonArgs(a: SupervisorArgs): string[] {
  return [...a.cgroupDirs.map((d) => `procs=${join(d, 'cgroup.procs')}`), ...(a.user ? [`user=${a.user}`] : []), `cwd=${a.cwd}`];
}

/**
 * `k=v\0` per variable: exactly the container's env (the spec's env and envFrom, the device
 * env), plus PATH (the node's, see nodePath) when the spec sets none. Nothing else of the
 * agent's environment leaks in: no HOME, USER, LANG, KUBECONFIG, DOCKER_HOST or secrets.
 */
export function envBlock(env: Record<string, string>, path = DEFAULT_PATH): Buffer {
  const all = 'PATH' in env ? env : { ...env, PATH: path };
  return Buffer.from(
    Object.entries(all)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(''),
  );
}

function spawnPerl(ctx: ProcessContext, script: string, args: string[], stdin: 'pipe' | 'ignore'): ChildProcess {
  return spawn(ctx.perl, [script, ...args], {
    detached: true,
    cwd: '/',
    env: { PATH: DEFAULT_PATH, LC_ALL: 'C' },
    stdio: [stdin, 'pipe', 'pipe', 'pipe'],
  });
}

function sendEnv(ctx: ProcessContext, child: ChildProcess, env: Record<string, string>): void {
  const fd3 = child.stdio[3] as Writable | null;
  fd3?.on('error', () => undefined);
  fd3?.end(envBlock(env, ctx.path));
}

function unavailable(ctx: ProcessContext, err: unknown): RuntimeUnavailableError {
  const message = (err as Error).message;
  return new RuntimeUnavailableError(`process runtime: cannot run ${ctx.perl} (the supervisor's interpreter): ${message}`, {
    engineMessage: message,
    cause: err,
  });
}

/**
 * Starts the supervisor and waits for its word: "ok <pid>" once the command runs,
 * "err <message>" when it could not be executed (the message then is the
 * container's start error).
 */
export async function launchSupervisor(ctx: ProcessContext, a: RunArgs): Promise<void> {
  const script = await installSupervisor(ctx.stateDir);
  const args = [
    'run',
    `dir=${a.dir}`,
    `maxlog=${a.maxLogBytes}`,
    ...(a.memoryCgroup ? [`memcg=${a.memoryCgroup}`] : []),
    ...(a.stdin ? ['stdin=1'] : []),
    ...(a.stdinOnce ? ['once=1'] : []),
    ...commonArgs(a),
    '--',
    ...a.argv,
  ];
  const child = spawnPerl(ctx, script, args, 'ignore');
  sendEnv(ctx, child, a.env);
  const line = await handshake(ctx, child);
  child.unref();
  if (line.startsWith('ok ')) return;
  const message = line.startsWith('err ') ? line.slice(4) : line;
  throw new StartFailedError(message, { engineMessage: message });
}

function handshake(ctx: ProcessContext, child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let errText = '';
    const done = (fn: () => void): void => {
      clearTimeout(timer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      fn();
    };
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
      done(() => reject(new StartFailedError(`the supervisor did not answer within ${HANDSHAKE_TIMEOUT_MS} ms`)));
    }, HANDSHAKE_TIMEOUT_MS);
    child.once('error', (err) => done(() => reject(unavailable(ctx, err))));
    child.stderr?.on('data', (chunk: Buffer) => {
      errText += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) done(() => resolve(out.slice(0, nl)));
    });
    child.once('close', (code) => {
      done(() =>
        reject(
          new StartFailedError(`the supervisor exited (${code}) before the command ran: ${errText.trim()}`, {
            engineMessage: errText.trim(),
          }),
        ),
      );
    });
  });
}

/** The exec helper: joins the cgroups, switches user, changes directory, executes. */
export async function spawnExecHelper(ctx: ProcessContext, a: SupervisorArgs, withStdin: boolean): Promise<ChildProcess> {
  const script = await installSupervisor(ctx.stateDir);
  const child = spawnPerl(ctx, script, ['exec', ...commonArgs(a), '--', ...a.argv], withStdin ? 'pipe' : 'ignore');
  sendEnv(ctx, child, a.env);
  return child;
}

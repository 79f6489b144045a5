// Settings and on-disk layout shared by every part of the process runtime.
//
// stateDir/
//   bin/supervisor-<hash>.pl      the supervisor (see supervisor-perl.ts)
//   names/<runtimeName>           holds the id of the object that owns the name
//   sandboxes/<id>/sandbox.json   a pod sandbox; work/ is its containers' default cwd
//   containers/<id>/config.json   written by the runtime at create
//                   launch.json   written by the runtime at start (cgroups, cwd, warnings)
//                   started.json  written by the supervisor once the command runs
//                   exit.json     written by the supervisor when it has ended
//                   container.log CRI-format log lines (container.log.1 after rotation)
//                   stdin         FIFO, when the container keeps stdin open
//
// Everything the runtime knows lives in these files, so a new instance on the same
// stateDir (an agent restart) sees exactly what the old one saw.

import { join } from 'node:path';
import { ContainerNotFoundError, SandboxError } from '../errors.js';
import type { EventHub } from './events.js';
import { KeyedMutex } from './keyed-mutex.js';

export interface ProcessRuntimeOptions {
  stateDir: string;
  /** The sandbox "IP": processes share the host's network. */
  hostIP?: string;
  /** Where the cgroup hierarchies are mounted. */
  cgroupRoot?: string;
  /** Parent cgroup of every container (v1: under each controller). */
  cgroupParent?: string;
  /** The perl interpreter that runs the supervisor. */
  perl?: string;
  /** A container's log is rotated (one old file kept) past this size. */
  maxLogBytes?: number;
  /** Object names start with this (drover_<container>_<pod>_...). */
  namePrefix?: string;
  /** PATH of a container whose spec sets none: the agent's own PATH by default (see DEFAULT_PATH). */
  path?: string;
}

export interface ProcessContext {
  stateDir: string;
  hostIP: string;
  cgroupRoot: string;
  cgroupParent: string;
  perl: string;
  maxLogBytes: number;
  namePrefix: string;
  /** PATH given to containers whose env has none. */
  path: string;
  hub: EventHub;
  locks: KeyedMutex;
}

/** Docker's default PATH: the supervisor's own, and a container's when the agent has no PATH. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A host process runs as a user's program on the node would: with the node's PATH (the
 * agent's), so `python3` or a CUDA toolkit under /opt resolves as in a login there. Nothing
 * else of the agent's environment is passed on (see envBlock).
 */
export function nodePath(): string {
  return process.env['PATH'] || DEFAULT_PATH;
}

export function createContext(opts: ProcessRuntimeOptions, hub: EventHub): ProcessContext {
  return {
    stateDir: opts.stateDir,
    hostIP: opts.hostIP ?? '127.0.0.1',
    cgroupRoot: opts.cgroupRoot ?? '/sys/fs/cgroup',
    cgroupParent: opts.cgroupParent ?? 'drover',
    perl: opts.perl ?? 'perl',
    maxLogBytes: opts.maxLogBytes ?? 10 * 1024 * 1024,
    namePrefix: opts.namePrefix ?? 'drover',
    path: opts.path ?? nodePath(),
    hub,
    locks: new KeyedMutex(),
  };
}

// Ids become path components; anything but our own hex ids could walk the tree.
const ID = /^[0-9a-f]{64}$/;

export function isId(id: string): boolean {
  return ID.test(id);
}

export function containerDir(ctx: ProcessContext, id: string): string {
  if (!isId(id)) throw new ContainerNotFoundError(id);
  return join(ctx.stateDir, 'containers', id);
}

export function sandboxDir(ctx: ProcessContext, id: string): string {
  if (!isId(id)) throw new SandboxError(`no such sandbox: ${id}`);
  return join(ctx.stateDir, 'sandboxes', id);
}

export function containersRoot(ctx: ProcessContext): string {
  return join(ctx.stateDir, 'containers');
}

export function sandboxesRoot(ctx: ProcessContext): string {
  return join(ctx.stateDir, 'sandboxes');
}

export function namesRoot(ctx: ProcessContext): string {
  return join(ctx.stateDir, 'names');
}

/** An object name from parts that are DNS labels already; '_' separates them. */
export function objectName(parts: Array<string | number>): string {
  return parts.map((p) => String(p).replace(/[^a-zA-Z0-9_.-]/g, '-')).join('_');
}

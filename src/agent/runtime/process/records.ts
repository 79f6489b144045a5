// The JSON files that hold a container's state (see context.ts for the layout).
// Written atomically (temp file + rename): a reader — this process, or a new one
// after an agent restart — never sees half a record.

import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContainerSpec } from '../runtime.js';

/** Written at create; `spec.resources` follows updateResources. */
export interface ContainerRecord {
  id: string;
  runtimeName: string;
  createdAt: string;
  spec: ContainerSpec;
  labels: Record<string, string>;
  imageId: string;
  /** What the process runtime could not honour (mounts, read-only root...). */
  warnings: string[];
}

/** Written by the runtime just before it starts the supervisor. */
export interface LaunchRecord {
  cwd: string;
  /** The container's cgroup directory per controller (the memory one tells OOM kills). */
  cgroups: Partial<Record<'memory' | 'cpu' | 'pids', string>>;
  warnings: string[];
}

/** Written by the supervisor once the command has been executed. */
export interface StartedRecord {
  pid: number;
  /** Start time in clock ticks (/proc/<pid>/stat field 22): guards against pid reuse. */
  pidStart: number;
  supervisorPid: number;
  supervisorStart: number;
  startedAt: string;
}

/** Written by the supervisor when the command has ended (or could not be executed). */
export interface ExitRecord {
  exitCode: number;
  signal: number;
  /** The memory cgroup's oom_kill counter; -1 when unknown. */
  oomKills: number;
  failcnt?: number;
  finishedAt: string;
  startFailed?: number;
  error?: string;
}

export const CONFIG = 'config.json';
export const LAUNCH = 'launch.json';
export const STARTED = 'started.json';
export const EXIT = 'exit.json';
export const LOG = 'container.log';
export const STDIN_FIFO = 'stdin';

export function isENOENT(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export async function readJson<T>(path: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isENOENT(err)) return undefined;
    throw err;
  }
  return JSON.parse(text) as T;
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(tmp, path);
}

export interface ContainerFiles {
  config: ContainerRecord;
  launch: LaunchRecord | undefined;
  started: StartedRecord | undefined;
  exit: ExitRecord | undefined;
}

/** Undefined when the container does not exist (or is being removed). */
export async function readContainerFiles(dir: string): Promise<ContainerFiles | undefined> {
  const config = await readJson<ContainerRecord>(join(dir, CONFIG));
  if (!config) return undefined;
  const [launch, started, exit] = await Promise.all([
    readJson<LaunchRecord>(join(dir, LAUNCH)),
    readJson<StartedRecord>(join(dir, STARTED)),
    readJson<ExitRecord>(join(dir, EXIT)),
  ]);
  return { config, launch, started, exit };
}

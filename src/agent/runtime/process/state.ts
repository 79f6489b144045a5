// A container's status, derived from its files and /proc. The supervisor's records
// are the truth; /proc only says whether a run without an exit record still goes on.

import { join } from 'node:path';
import { containerDir, type ProcessContext } from './context.js';
import { EXIT, readContainerFiles, readJson, type ContainerFiles, type ExitRecord } from './records.js';
import { ContainerNotFoundError } from '../errors.js';
import { processRunning } from '../../../util/process-alive.js';
import type { ContainerStatus, ContainerSummary } from '../runtime.js';

/** Docker's code for a container whose end nobody saw. */
export const LOST_EXIT_CODE = 255;
const LOST = 'the container ended while its supervisor was not running: its exit code is unknown';

export async function loadFiles(ctx: ProcessContext, id: string): Promise<ContainerFiles> {
  const files = await readContainerFiles(containerDir(ctx, id));
  if (!files) throw new ContainerNotFoundError(id);
  return files;
}

function oomKilled(exit: ExitRecord): boolean {
  if (exit.oomKills > 0) return true;
  // Kernels before 4.13 have no oom_kill counter: a SIGKILL in a cgroup that hit its limit.
  return exit.oomKills < 0 && exit.signal === 9 && (exit.failcnt ?? 0) > 0;
}

function warnings(files: ContainerFiles): string {
  const all = [...files.config.warnings, ...(files.launch?.warnings ?? [])];
  return all.length === 0 ? '' : `warning: ${all.join('; ')}`;
}

type RunState = Pick<ContainerStatus, 'state' | 'exitCode' | 'oomKilled' | 'startedAt' | 'finishedAt' | 'error' | 'pid'>;

async function runState(ctx: ProcessContext, files: ContainerFiles): Promise<RunState> {
  const { started } = files;
  let { exit } = files;
  const startedAt = started ? { startedAt: new Date(started.startedAt) } : {};
  if (!exit && started) {
    const main = processRunning(started.pid, started.pidStart);
    // With the command gone and its supervisor still draining the pipes, it is still
    // running — but its pid may already be reused, so none is reported.
    if (main || processRunning(started.supervisorPid, started.supervisorStart)) {
      return { state: 'running', exitCode: 0, oomKilled: false, ...startedAt, error: warnings(files), pid: main ? started.pid : 0 };
    }
    // It may have ended between the first read and the /proc check.
    exit = await readJson<ExitRecord>(join(containerDir(ctx, files.config.id), EXIT));
    if (!exit) return { state: 'exited', exitCode: LOST_EXIT_CODE, oomKilled: false, ...startedAt, error: LOST, pid: 0 };
  }
  if (!exit) return { state: 'created', exitCode: 0, oomKilled: false, error: warnings(files), pid: 0 };
  const finishedAt = new Date(exit.finishedAt);
  // A start that failed leaves the container created, with the reason, as Docker does.
  if (exit.startFailed) {
    return { state: 'created', exitCode: exit.exitCode, oomKilled: false, error: String(exit.error ?? ''), pid: 0 };
  }
  return { state: 'exited', exitCode: exit.exitCode, oomKilled: oomKilled(exit), ...startedAt, finishedAt, error: warnings(files), pid: 0 };
}

export async function statusFromFiles(ctx: ProcessContext, files: ContainerFiles): Promise<ContainerStatus> {
  const { config } = files;
  return {
    id: config.id,
    runtimeName: config.runtimeName,
    ...(await runState(ctx, files)),
    createdAt: new Date(config.createdAt),
    image: config.spec.image,
    imageId: config.imageId,
    tty: false,
    labels: config.labels,
  };
}

export async function inspectContainer(ctx: ProcessContext, id: string): Promise<ContainerStatus> {
  return statusFromFiles(ctx, await loadFiles(ctx, id));
}

export function toSummary(s: ContainerStatus): ContainerSummary {
  return { id: s.id, runtimeName: s.runtimeName, state: s.state, image: s.image, imageId: s.imageId, createdAt: s.createdAt, labels: s.labels };
}

export function matchLabels(labels: Record<string, string>, wanted: Record<string, string | true> | undefined): boolean {
  return Object.entries(wanted ?? {}).every(([k, v]) => (v === true ? k in labels : labels[k] === v));
}

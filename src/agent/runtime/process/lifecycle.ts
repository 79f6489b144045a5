// Start, stop, kill, wait, update and remove of process containers.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { applyResources, cgroupDirs, cgroupPids, createCgroups, detectCgroups, removeCgroups, type CgroupLayout } from './cgroups.js';
import { argvOf, deleteContainer } from './containers.js';
import { containerDir, type ProcessContext } from './context.js';
import type { ExitWatcher } from './exit-watch.js';
import { parseSignal, sendSignal, signalGroup } from './proc.js';
import { CONFIG, EXIT, LAUNCH, STARTED, writeJson, type ContainerFiles, type LaunchRecord } from './records.js';
import { workDir } from './sandboxes.js';
import { inspectContainer, loadFiles, statusFromFiles } from './state.js';
import { launchSupervisor } from './supervisor.js';
import { NotRunningError, RuntimeError, StartFailedError } from '../errors.js';
import type { ContainerResources, ContainerStatus } from '../runtime.js';

/** How long a killed container may take to be reaped and recorded. */
const KILL_WAIT_MS = 10_000;

export interface Lifecycle {
  ctx: ProcessContext;
  exits: ExitWatcher;
  cgroups: Promise<CgroupLayout>;
}

async function prepareLaunch(lc: Lifecycle, files: ContainerFiles): Promise<LaunchRecord> {
  const { spec, id } = files.config;
  const layout = await lc.cgroups;
  const { cgroups, warnings: made } = await createCgroups(layout, lc.ctx.cgroupParent, id);
  const limits = await applyResources(layout, cgroups, spec.resources);
  return {
    cwd: spec.workingDir || workDir(lc.ctx, spec.sandboxId),
    cgroups,
    // Why a cgroup is missing only matters when a limit needed it.
    warnings: limits.length > 0 ? [...limits, ...made] : [],
  };
}

export function startContainer(lc: Lifecycle, id: string): Promise<void> {
  return lc.ctx.locks.run(id, async () => {
    const files = await loadFiles(lc.ctx, id);
    if ((await statusFromFiles(lc.ctx, files)).state === 'running') return; // idempotent, as Docker's 304
    const dir = containerDir(lc.ctx, id);
    const launch = await prepareLaunch(lc, files);
    await Promise.all([EXIT, STARTED].map((f) => rm(join(dir, f), { force: true })));
    await writeJson(join(dir, LAUNCH), launch);
    const { spec } = files.config;
    try {
      await launchSupervisor(lc.ctx, {
        dir,
        cgroupDirs: cgroupDirs(launch.cgroups),
        ...(launch.cgroups.memory ? { memoryCgroup: launch.cgroups.memory } : {}),
        ...(spec.securityContext?.user ? { user: spec.securityContext.user } : {}),
        cwd: launch.cwd,
        argv: argvOf(spec),
        env: spec.env ?? {},
        stdin: spec.stdin ?? false,
        stdinOnce: spec.stdinOnce ?? false,
        maxLogBytes: lc.ctx.maxLogBytes,
      });
    } catch (err) {
      if (err instanceof StartFailedError) {
        throw new StartFailedError(`start container ${id}: ${err.message}`, { engineMessage: err.engineMessage || err.message, cause: err });
      }
      throw err;
    }
    lc.ctx.hub.emit('start', id, files.config.labels);
    lc.exits.follow(id);
  });
}

async function runningStatus(lc: Lifecycle, id: string, what: string): Promise<ContainerStatus> {
  const status = await inspectContainer(lc.ctx, id);
  if (status.state !== 'running') throw new NotRunningError(`${what} container ${id}: container ${id} is not running`);
  return status;
}

/** Waits for the end, at most `ms`; true when it has ended (or the container is gone). */
async function endedWithin(lc: Lifecycle, id: string, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  const signal = AbortSignal.timeout(ms);
  return lc.exits.whenNotRunning(id, signal).then(
    () => true,
    () => false,
  );
}

/** SIGKILL to the process group and to whatever else is in the container's cgroups. */
async function killAll(lc: Lifecycle, files: ContainerFiles, status: ContainerStatus): Promise<void> {
  if (status.pid > 0) signalGroup(status.pid, 'SIGKILL');
  for (const pid of await cgroupPids(cgroupDirs(files.launch?.cgroups ?? {}))) sendSignal(pid, 'SIGKILL', false);
}

/**
 * SIGTERM to the whole process group (there is no pid namespace whose init could
 * pass it on), then SIGKILL to everything once the grace has passed.
 */
export async function stopContainer(lc: Lifecycle, id: string, graceSeconds: number): Promise<void> {
  const files = await loadFiles(lc.ctx, id);
  const status = await statusFromFiles(lc.ctx, files);
  if (status.state !== 'running') return;
  if (status.pid > 0) signalGroup(status.pid, 'SIGTERM');
  if (!(await endedWithin(lc, id, Math.max(0, graceSeconds) * 1000))) {
    await killAll(lc, files, status);
    if (!(await endedWithin(lc, id, KILL_WAIT_MS))) {
      throw new RuntimeError(`stop container ${id}: still running ${KILL_WAIT_MS} ms after SIGKILL`);
    }
  }
  await lc.exits.settle(id);
  lc.ctx.hub.emit('stop', id, files.config.labels);
}

/** Like `docker kill`: the signal goes to the container's main process only. */
export async function killContainer(lc: Lifecycle, id: string, signal: string): Promise<void> {
  const sig = parseSignal(signal);
  const status = await runningStatus(lc, id, 'kill');
  if (!sendSignal(status.pid, sig, false)) throw new NotRunningError(`kill container ${id}: container ${id} is not running`);
  lc.ctx.hub.emit('kill', id, status.labels);
}

export async function waitContainer(lc: Lifecycle, id: string, signal?: AbortSignal): Promise<number> {
  await inspectContainer(lc.ctx, id); // ContainerNotFound before waiting
  const status = await lc.exits.whenNotRunning(id, signal);
  return status ? status.exitCode : (await inspectContainer(lc.ctx, id)).exitCode;
}

export function updateResources(lc: Lifecycle, id: string, resources: ContainerResources): Promise<void> {
  return lc.ctx.locks.run(id, async () => {
    const files = await loadFiles(lc.ctx, id);
    const merged = { ...(files.config.spec.resources ?? {}), ...resources };
    const config = { ...files.config, spec: { ...files.config.spec, resources: merged } };
    await writeJson(join(containerDir(lc.ctx, id), CONFIG), config);
    if (!files.launch || (await statusFromFiles(lc.ctx, files)).state !== 'running') return;
    const warnings = await applyResources(await lc.cgroups, files.launch.cgroups, resources);
    // Never fatal (the process keeps running); the status says what was not applied.
    const launch: LaunchRecord = { ...files.launch, warnings: [...new Set([...files.launch.warnings, ...warnings])] };
    await writeJson(join(containerDir(lc.ctx, id), LAUNCH), launch);
  });
}

export function removeContainer(lc: Lifecycle, id: string, force: boolean): Promise<void> {
  return lc.ctx.locks.run(id, async () => {
    let files: ContainerFiles;
    try {
      files = await loadFiles(lc.ctx, id);
    } catch {
      return; // gone already: removal is idempotent
    }
    let status = await statusFromFiles(lc.ctx, files);
    if (status.state === 'running') {
      if (!force) throw new RuntimeError(`remove container ${id}: cannot remove a running container; stop it first or force the removal`, { statusCode: 409 });
      await killAll(lc, files, status);
      await endedWithin(lc, id, KILL_WAIT_MS);
      status = await inspectContainer(lc.ctx, id);
    }
    await lc.exits.settle(id);
    await removeCgroups(cgroupDirs(files.launch?.cgroups ?? {}));
    await deleteContainer(lc.ctx, status);
    lc.exits.forget(id);
  });
}

export function cgroupLayout(root: string): Promise<CgroupLayout> {
  return detectCgroups(root);
}

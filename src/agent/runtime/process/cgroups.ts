// Resource limits through cgroups, where the host lets us write them.
//
// v1 (one hierarchy per controller): <root>/{memory,cpu,pids}/<parent>/<id>.
// v2 (unified): <root>/<parent>/<id>, with the controllers enabled in the parents.
// A limit that cannot be set is a warning on the container, never a failure: the
// process runtime is for hosts that may not give us cgroups at all.

import { access, mkdir, readFile, realpath, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContainerResources } from '../runtime.js';

export type CgroupLayout = { version: 1 | 2; root: string } | { version: 0; reason: string };

type Controller = 'memory' | 'cpu' | 'pids';
const CONTROLLERS: Controller[] = ['memory', 'cpu', 'pids'];
const CPU_PERIOD_US = 100_000;

/**
 * A container's cgroup directory per controller (one shared directory on v2). cpuacct: v1
 * hierarchies that mount CPU accounting apart from cpu (no limit is set there; the agent reads
 * the container's CPU use from it, src/agent/stats/).
 */
export type ContainerCgroups = Partial<Record<Controller | 'cpuacct', string>>;

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : String(err);
}

export async function detectCgroups(root: string): Promise<CgroupLayout> {
  if (await exists(join(root, 'cgroup.controllers'))) return { version: 2, root };
  if (await exists(join(root, 'memory', 'memory.limit_in_bytes'))) return { version: 1, root };
  return { version: 0, reason: `no cgroup memory controller under ${root}` };
}

/** v2 only hands a controller to a child whose parent lists it in subtree_control. */
async function enableV2(root: string, parent: string): Promise<void> {
  for (const dir of [root, join(root, parent)]) {
    for (const c of CONTROLLERS) {
      await writeFile(join(dir, 'cgroup.subtree_control'), `+${c}`).catch(() => undefined);
    }
  }
}

async function freshDir(dir: string): Promise<void> {
  // A directory left by an earlier run of this container would carry its counters
  // (oom_kill) into this one; an empty one can simply be made again.
  await rmdir(dir).catch(() => undefined);
  await mkdir(dir, { recursive: true });
}

/** Makes the container's cgroups; `warnings` says which could not be made. */
export async function createCgroups(layout: CgroupLayout, parent: string, id: string): Promise<{ cgroups: ContainerCgroups; warnings: string[] }> {
  const cgroups: ContainerCgroups = {};
  const warnings: string[] = [];
  if (layout.version === 0) return { cgroups, warnings: [`cgroups unavailable: ${layout.reason}`] };
  if (layout.version === 2) {
    const dir = join(layout.root, parent, id);
    try {
      await mkdir(join(layout.root, parent), { recursive: true });
      await enableV2(layout.root, parent);
      await freshDir(dir);
    } catch (err) {
      return { cgroups, warnings: [`cgroup ${dir}: ${reason(err)}`] };
    }
    for (const c of CONTROLLERS) {
      const probe = c === 'memory' ? 'memory.max' : c === 'cpu' ? 'cpu.max' : 'pids.max';
      if (await exists(join(dir, probe))) cgroups[c] = dir;
    }
    return { cgroups, warnings };
  }
  for (const c of await v1Controllers(layout.root)) {
    const dir = join(layout.root, c, parent, id);
    try {
      await freshDir(dir);
      cgroups[c] = dir;
    } catch (err) {
      warnings.push(`cgroup ${dir}: ${reason(err)}`);
    }
  }
  return { cgroups, warnings };
}

/** The v1 hierarchies there are: cpuacct too where it is not the cpu hierarchy itself (cpu,cpuacct). */
async function v1Controllers(root: string): Promise<Array<Controller | 'cpuacct'>> {
  const present: Array<Controller | 'cpuacct'> = [];
  for (const c of CONTROLLERS) if (await exists(join(root, c))) present.push(c);
  const real = (c: string) => realpath(join(root, c)).catch(() => undefined);
  const cpuacct = await real('cpuacct');
  if (cpuacct !== undefined && cpuacct !== (await real('cpu'))) present.push('cpuacct');
  return present;
}

export function cgroupDirs(cgroups: ContainerCgroups): string[] {
  return [...new Set(Object.values(cgroups))];
}

async function writeValue(dir: string, file: string, value: string | number): Promise<void> {
  await writeFile(join(dir, file), String(value));
}

/**
 * Swap may never exceed the memory limit (as the kubelet sets it), and v1 refuses
 * memsw below memory: raising needs memsw first, lowering memory first.
 */
async function setMemoryV1(dir: string, bytes: number): Promise<void> {
  const memsw = await exists(join(dir, 'memory.memsw.limit_in_bytes'));
  const orders = [
    ['memory.limit_in_bytes', 'memory.memsw.limit_in_bytes'],
    ['memory.memsw.limit_in_bytes', 'memory.limit_in_bytes'],
  ];
  let lastErr: unknown;
  for (const order of orders) {
    try {
      for (const file of order) if (memsw || file === 'memory.limit_in_bytes') await writeValue(dir, file, bytes);
      return;
    } catch (err) {
      lastErr = err;
    }
  }
  throw lastErr;
}

async function setMemory(version: 1 | 2, dir: string, bytes: number): Promise<void> {
  if (version === 1) return setMemoryV1(dir, bytes);
  await writeValue(dir, 'memory.max', bytes);
  if (await exists(join(dir, 'memory.swap.max'))) await writeValue(dir, 'memory.swap.max', 0);
}

async function setCpu(version: 1 | 2, dir: string, r: ContainerResources): Promise<void> {
  const quota = r.cpuLimitMillis && r.cpuLimitMillis > 0 ? Math.max(1000, Math.round((r.cpuLimitMillis * CPU_PERIOD_US) / 1000)) : undefined;
  const shares = r.cpuRequestMillis && r.cpuRequestMillis > 0 ? Math.max(2, Math.round((r.cpuRequestMillis * 1024) / 1000)) : undefined;
  if (version === 1) {
    if (quota !== undefined) {
      await writeValue(dir, 'cpu.cfs_period_us', CPU_PERIOD_US);
      await writeValue(dir, 'cpu.cfs_quota_us', quota);
    }
    if (shares !== undefined) await writeValue(dir, 'cpu.shares', shares);
    return;
  }
  if (quota !== undefined) await writeValue(dir, 'cpu.max', `${quota} ${CPU_PERIOD_US}`);
  // The kernel's (and runc's) mapping of shares [2, 262144] onto weight [1, 10000].
  if (shares !== undefined) await writeValue(dir, 'cpu.weight', 1 + Math.floor(((shares - 2) * 9999) / 262142));
}

/** Sets the limits `r` names (absent fields stay as they are); returns warnings. */
export async function applyResources(layout: CgroupLayout, cgroups: ContainerCgroups, r: ContainerResources | undefined): Promise<string[]> {
  if (!r || layout.version === 0) {
    return r && wantsAny(r) && layout.version === 0 ? [`resource limits not enforced: ${layout.reason}`] : [];
  }
  const version = layout.version;
  const warnings: string[] = [];
  const attempt = async (what: string, wanted: boolean, dir: string | undefined, set: (dir: string) => Promise<void>): Promise<void> => {
    if (!wanted) return;
    if (!dir) return void warnings.push(`${what} not enforced: no writable ${what.split(' ')[0]} cgroup`);
    await set(dir).catch((err: unknown) => warnings.push(`${what} not enforced: ${reason(err)}`));
  };
  await attempt('memory limit', (r.memoryLimitBytes ?? 0) > 0, cgroups.memory, (d) => setMemory(version, d, r.memoryLimitBytes ?? 0));
  await attempt('cpu limits', (r.cpuLimitMillis ?? 0) > 0 || (r.cpuRequestMillis ?? 0) > 0, cgroups.cpu, (d) => setCpu(version, d, r));
  await attempt('pids limit', (r.pidsLimit ?? 0) > 0, cgroups.pids, (d) => writeValue(d, 'pids.max', r.pidsLimit ?? 0));
  return warnings;
}

function wantsAny(r: ContainerResources): boolean {
  return [r.memoryLimitBytes, r.cpuLimitMillis, r.cpuRequestMillis, r.pidsLimit].some((v) => (v ?? 0) > 0);
}

/** The processes in the container's cgroups (any one lists them all on v1). */
export async function cgroupPids(dirs: string[]): Promise<number[]> {
  for (const dir of dirs) {
    try {
      const text = await readFile(join(dir, 'cgroup.procs'), 'utf8');
      return text
        .split('\n')
        .filter((l) => /^\d+$/.test(l))
        .map(Number);
    } catch {
      continue;
    }
  }
  return [];
}

/** Removes the directories; a cgroup still holding processes stays (rmdir says EBUSY). */
export async function removeCgroups(dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((d) => rmdir(d).catch(() => undefined)));
}

/** The parent directories this runtime made; removed once empty (tests, uninstall). */
export async function removeCgroupParent(layout: CgroupLayout, parent: string): Promise<void> {
  if (layout.version === 0) return;
  const dirs = layout.version === 2 ? [join(layout.root, parent)] : [...CONTROLLERS, 'cpuacct'].map((c) => join(layout.root, c, parent));
  await removeCgroups(dirs);
}

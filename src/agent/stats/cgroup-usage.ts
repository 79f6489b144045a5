// A container's CPU and memory figures read straight from its cgroup files, as cAdvisor reads
// them for the kubelet (Docker's stats API costs about a second per container):
//   CPU: cumulative core-nanoseconds — v1 cpuacct.usage, v2 cpu.stat usage_usec × 1000.
//   Memory working set: usage minus inactive file pages (cache the kernel can drop at once),
//     never below 0 — v1 memory.usage_in_bytes − total_inactive_file, v2 memory.current −
//     inactive_file. This is the figure the kubelet evicts by and metrics-server reports.
// Where a container's cgroup lies is read from /proc/<pid>/cgroup of its main process, so it
// works whatever the engine's cgroup driver or parent (cgroupfs `/docker/<id>`, systemd
// `system.slice/docker-<id>.scope`, the process runtime's `drover/<id>`).
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The directories of one cgroup's CPU accounting and memory controllers (the same dir on v2). */
export interface CgroupPaths {
  version: 1 | 2;
  cpu?: string;
  memory?: string;
}

export interface CgroupUsage {
  /** Cumulative CPU time of every process in the cgroup, in core-nanoseconds. */
  cpuNs?: number;
  memoryWorkingSetBytes?: number;
}

/** v2 when the root is the unified hierarchy; v1 (or hybrid: controllers on v1) otherwise. */
export async function cgroupVersionAt(root: string): Promise<1 | 2> {
  return access(join(root, 'cgroup.controllers')).then(
    () => 2 as const,
    () => 1 as const,
  );
}

/**
 * The cgroup directories named by a /proc/<pid>/cgroup text. v1 lines are `id:controllers:path`
 * and each hierarchy is mounted at <root>/<controllers> (e.g. `cpu,cpuacct`, `memory`); the v2
 * line is `0::path` under <root> itself.
 */
export function cgroupPathsFrom(procCgroup: string, root: string, version: 1 | 2): CgroupPaths {
  const paths: CgroupPaths = { version };
  for (const line of procCgroup.split('\n')) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    if (first < 0 || second < 0) continue;
    const controllers = line.slice(first + 1, second);
    const path = line.slice(second + 1);
    if (version === 2) {
      if (line.slice(0, first) === '0' && controllers === '') return { version, cpu: join(root, path), memory: join(root, path) };
      continue;
    }
    const names = controllers.split(',');
    if (names.includes('cpuacct')) paths.cpu = join(root, controllers, path);
    if (names.includes('memory')) paths.memory = join(root, controllers, path);
  }
  return paths;
}

/** The value of `key` in a flat-keyed file (memory.stat, cpu.stat): `key value` lines. */
export function statValue(text: string, key: string): number | undefined {
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(0, space) === key) {
      const value = Number(line.slice(space + 1).trim());
      return Number.isFinite(value) ? value : undefined;
    }
  }
  return undefined;
}

export function workingSetBytes(usage: number, inactiveFile: number | undefined): number {
  return Math.max(0, usage - (inactiveFile ?? 0));
}

/** v1: memory.usage_in_bytes and memory.stat (total_inactive_file counts the cgroup's children too). */
export function memoryV1(usageText: string, statText: string): number | undefined {
  const usage = Number(usageText.trim());
  if (!Number.isFinite(usage) || usageText.trim() === '') return undefined;
  return workingSetBytes(usage, statValue(statText, 'total_inactive_file') ?? statValue(statText, 'inactive_file'));
}

/** v2: memory.current and memory.stat (hierarchical already). */
export function memoryV2(currentText: string, statText: string): number | undefined {
  const usage = Number(currentText.trim());
  if (!Number.isFinite(usage) || currentText.trim() === '') return undefined;
  return workingSetBytes(usage, statValue(statText, 'inactive_file'));
}

/** v1 cpuacct.usage is nanoseconds already. */
export function cpuNsV1(usageText: string): number | undefined {
  const value = Number(usageText.trim());
  return usageText.trim() !== '' && Number.isFinite(value) ? value : undefined;
}

/** v2 cpu.stat's usage_usec, in nanoseconds. */
export function cpuNsV2(statText: string): number | undefined {
  const usec = statValue(statText, 'usage_usec');
  return usec === undefined ? undefined : usec * 1000;
}

const readOrUndefined = (path: string) => readFile(path, 'utf8').catch(() => undefined);

/** Where each cgroup version keeps the figures, and how each is read. */
const LAYOUT = {
  1: { cpuFile: 'cpuacct.usage', memoryFile: 'memory.usage_in_bytes', cpuNs: cpuNsV1, workingSet: memoryV1 },
  2: { cpuFile: 'cpu.stat', memoryFile: 'memory.current', cpuNs: cpuNsV2, workingSet: memoryV2 },
} as const;

/** Reads what the cgroup's files say now; a figure whose files are gone (the container ended) is absent. */
export async function readCgroupUsage(paths: CgroupPaths): Promise<CgroupUsage> {
  const layout = LAYOUT[paths.version];
  const [cpu, memory, memStat] = await Promise.all([
    paths.cpu ? readOrUndefined(join(paths.cpu, layout.cpuFile)) : undefined,
    paths.memory ? readOrUndefined(join(paths.memory, layout.memoryFile)) : undefined,
    paths.memory ? readOrUndefined(join(paths.memory, 'memory.stat')) : undefined,
  ]);
  const usage: CgroupUsage = {};
  const cpuNs = cpu === undefined ? undefined : layout.cpuNs(cpu);
  const workingSet = memory === undefined ? undefined : layout.workingSet(memory, memStat ?? '');
  if (cpuNs !== undefined) usage.cpuNs = cpuNs;
  if (workingSet !== undefined) usage.memoryWorkingSetBytes = workingSet;
  return usage;
}

/**
 * The cgroups of process `pid`, less any it shares with `own` (the agent's): a process-runtime
 * container on a host without cgroups stays in the agent's, whose figures are not its own.
 */
export async function cgroupsOfProcess(pid: number, root: string, version: 1 | 2, own: CgroupPaths, proc = '/proc'): Promise<CgroupPaths | undefined> {
  const text = await readOrUndefined(join(proc, String(pid), 'cgroup'));
  if (text === undefined) return undefined;
  const paths = cgroupPathsFrom(text, root, version);
  if (paths.cpu !== undefined && paths.cpu === own.cpu) delete paths.cpu;
  if (paths.memory !== undefined && paths.memory === own.memory) delete paths.memory;
  return paths.cpu === undefined && paths.memory === undefined ? undefined : paths;
}

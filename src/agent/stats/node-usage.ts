// The node's own figures, from /proc as the kubelet's cAdvisor reports its root container:
//   CPU: the busy time of every CPU from /proc/stat's `cpu` line (user, nice, system, irq,
//     softirq, steal; guest time is already inside user), in USER_HZ ticks (100 a second on
//     every Linux ABI Node runs on) turned into core-nanoseconds.
//   Memory working set: what is in use, page cache included, less the inactive file pages:
//     MemTotal − MemFree − Inactive(file) from /proc/meminfo, the root cgroup's usage minus
//     inactive_file that the kubelet reports.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CgroupUsage } from './cgroup-usage.js';

const NS_PER_TICK = 1e9 / 100;

export function cpuNsFromProcStat(text: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return Number.isFinite(busy) ? busy * NS_PER_TICK : undefined;
}

/** /proc/meminfo values are in kB (KiB). */
export function workingSetFromMeminfo(text: string): number | undefined {
  const kib = (name: string): number | undefined => {
    const match = new RegExp(`^${name.replace(/[()]/g, '\\$&')}:\\s+(\\d+)`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const total = kib('MemTotal');
  const free = kib('MemFree');
  if (total === undefined || free === undefined) return undefined;
  return Math.max(0, total - free - (kib('Inactive(file)') ?? 0));
}

export async function readNodeUsage(proc = '/proc'): Promise<CgroupUsage> {
  const [stat, meminfo] = await Promise.all([readFile(join(proc, 'stat'), 'utf8').catch(() => ''), readFile(join(proc, 'meminfo'), 'utf8').catch(() => '')]);
  const usage: CgroupUsage = {};
  const cpuNs = cpuNsFromProcStat(stat);
  const memory = workingSetFromMeminfo(meminfo);
  if (cpuNs !== undefined) usage.cpuNs = cpuNs;
  if (memory !== undefined) usage.memoryWorkingSetBytes = memory;
  return usage;
}

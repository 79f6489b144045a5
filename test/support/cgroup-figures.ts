// A container's own CPU and memory figures, read by the test straight from the kernel's cgroup
// files (not through Drover's agent), so that what `kubectl top` and the dashboard say can be
// checked against them. v1 (cpuacct, memory) and v2 (the unified hierarchy) both.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CGROUP_ROOT = '/sys/fs/cgroup';
const unified = () => existsSync(join(CGROUP_ROOT, 'cgroup.controllers'));

/** The directory of one controller's cgroup for a process (v2: the one unified directory). */
function cgroupDir(pid: number, controller: 'cpuacct' | 'memory'): string {
  const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  if (unified()) return join(CGROUP_ROOT, lines.find((l) => l.startsWith('0::'))!.slice(3));
  const [, controllers, path] = lines.find((l) => l.split(':')[1]?.split(',').includes(controller))!.split(':') as [string, string, string];
  return join(CGROUP_ROOT, controllers, path);
}

/** The CPU counter (ns) of a process's cgroup: v1 cpuacct.usage, or v2 cpu.stat usage_usec. */
export function cpuCounterOf(pid: number): () => number {
  const dir = cgroupDir(pid, 'cpuacct');
  if (unified()) return () => Number(/^usage_usec (\d+)$/m.exec(readFileSync(join(dir, 'cpu.stat'), 'utf8'))![1]) * 1000;
  return () => Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8'));
}

/**
 * The memory working set (bytes) of a process's cgroup, as the kubelet defines it: usage less the
 * inactive file pages — v1 memory.usage_in_bytes − total_inactive_file, v2 memory.current − inactive_file.
 */
export function workingSetOf(pid: number): number {
  const dir = cgroupDir(pid, 'memory');
  const stat = readFileSync(join(dir, 'memory.stat'), 'utf8');
  const [usageFile, inactiveKey] = unified() ? ['memory.current', 'inactive_file'] : ['memory.usage_in_bytes', 'total_inactive_file'];
  const inactive = Number(new RegExp(`^${inactiveKey} (\\d+)$`, 'm').exec(stat)?.[1] ?? 0);
  return Math.max(0, Number(readFileSync(join(dir, usageFile), 'utf8')) - inactive);
}

/** The counter at time `t` (ms), interpolated between the readings either side of it. */
export function counterAt(readings: ReadonlyArray<{ t: number; ns: number }>, t: number): number | undefined {
  for (let i = 1; i < readings.length; i++) {
    const a = readings[i - 1]!;
    const b = readings[i]!;
    if (a.t <= t && t <= b.t) return a.ns + ((b.ns - a.ns) * (t - a.t)) / Math.max(1, b.t - a.t);
  }
  return undefined;
}

/** The main process of a pod's container on a `drover up` node, found by the labels the agent gives it. */
export async function containerPid(nodeName: string, podName: string): Promise<number> {
  const { stdout } = await run('docker', [
    'ps',
    '-q',
    '--filter',
    `label=drover.dev/node=${nodeName}`,
    '--filter',
    `label=drover.dev/pod-name=${podName}`,
    '--filter',
    'label=drover.dev/kind=container',
  ]);
  const id = stdout.trim().split('\n')[0];
  if (!id) throw new Error(`no running container of pod ${podName} on ${nodeName}`);
  return Number((await run('docker', ['inspect', '-f', '{{.State.Pid}}', id])).stdout.trim());
}

/**
 * A CPU counter read every 100 ms, and the rate over any window inside the readings. A metrics
 * timestamp has whole seconds (metav1.Time), so the window's true end lies somewhere in the second
 * after it: `rateNear` takes the end within that second whose rate is closest to `claimed`.
 */
export class CpuReadings {
  private readonly readings: Array<{ t: number; ns: number }> = [];
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(counter: () => number) {
    this.timer = setInterval(() => this.readings.push({ t: Date.now(), ns: counter() }), 100);
  }

  get since(): number {
    return this.readings[0]?.t ?? Number.POSITIVE_INFINITY;
  }

  /** Millicores over [end − windowMs, end] for each end in the second after `timestamp`; empty where outside the readings. */
  rates(timestamp: number, windowMs: number): number[] {
    const out: number[] = [];
    for (let offset = 0; offset <= 1000; offset += 100) {
      const start = counterAt(this.readings, timestamp + offset - windowMs);
      const finish = counterAt(this.readings, timestamp + offset);
      if (start !== undefined && finish !== undefined) out.push((finish - start) / windowMs / 1000);
    }
    return out;
  }

  rateNear(timestamp: number, windowMs: number, claimed: number): number | undefined {
    const rates = this.rates(timestamp, windowMs);
    return rates.length === 0 ? undefined : rates.reduce((a, b) => (Math.abs(b - claimed) < Math.abs(a - claimed) ? b : a));
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

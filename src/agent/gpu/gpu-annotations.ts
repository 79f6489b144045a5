// Per-GPU facts where `kubectl describe node` shows them: one annotation per GPU,
//   drover.dev/gpu-<index>: <uuid>, <name>, <util>%, <used>/<total> MiB[, unhealthy: <why>]
// Annotations are Node metadata, a write of the whole object: they are refreshed at most every
// 30 s, and only when something moved enough to matter to a reader (health, 5 points of
// utilization, 1% of memory), so an idle node writes nothing.
import type { GpuMonitor } from './gpu-monitor.js';

export const GPU_ANNOTATION_PREFIX = 'drover.dev/gpu-';
export const ANNOTATION_MIN_INTERVAL_MS = 30_000;
const UTIL_STEP = 5;
const MEMORY_STEP_RATIO = 0.01;

interface Shown {
  util: number | undefined;
  used: number | undefined;
  total: number;
  health: string | undefined;
}

function shownOf(monitor: GpuMonitor): Shown[] {
  return monitor.gpus.map((g) => {
    const s = monitor.sample(g.uuid);
    return { util: s?.utilizationPercent, used: s?.memoryUsedMiB, total: s?.memoryTotalMiB ?? g.memoryMiB, health: monitor.healthOf(g.uuid) };
  });
}

function moved(a: number | undefined, b: number | undefined, step: number): boolean {
  if (a === undefined || b === undefined) return a !== b;
  return Math.abs(a - b) >= step;
}

export function materiallyChanged(before: readonly Shown[] | undefined, now: readonly Shown[]): boolean {
  if (!before || before.length !== now.length) return true;
  return now.some((n, i) => {
    const b = before[i]!;
    return n.health !== b.health || moved(n.util, b.util, UTIL_STEP) || moved(n.used, b.used, Math.max(1, n.total * MEMORY_STEP_RATIO));
  });
}

export function gpuAnnotations(monitor: GpuMonitor): Record<string, string> {
  const shown = shownOf(monitor);
  const out: Record<string, string> = {};
  monitor.gpus.forEach((g, i) => {
    const s = shown[i]!;
    const util = s.util === undefined ? 'n/a' : `${s.util}%`;
    const mem = `${s.used ?? 'n/a'}/${s.total} MiB`;
    out[`${GPU_ANNOTATION_PREFIX}${i}`] = `${g.uuid}, ${g.name}, ${util}, ${mem}${s.health ? `, unhealthy: ${s.health}` : ''}`;
  });
  return out;
}

/** Decides when the annotations are written: the first time, then on material change at most every 30 s. */
export class AnnotationThrottle {
  private shown: Shown[] | undefined;
  private at = 0;

  constructor(private readonly minIntervalMs = ANNOTATION_MIN_INTERVAL_MS) {}

  /** The annotations to write now, or undefined. Health changes skip the wait. */
  due(monitor: GpuMonitor, now = Date.now()): Record<string, string> | undefined {
    const shown = shownOf(monitor);
    if (!materiallyChanged(this.shown, shown)) return undefined;
    const healthMoved = !this.shown || shown.some((s, i) => s.health !== this.shown![i]?.health);
    if (!healthMoved && now - this.at < this.minIntervalMs) return undefined;
    this.shown = shown;
    this.at = now;
    return gpuAnnotations(monitor);
  }

  /** The last write did not happen: the next call writes again. */
  failed(): void {
    this.shown = undefined;
  }
}

// One container's (or the node's) samples over time, and the rates served from them. CPU is a
// cumulative counter, so a figure is a rate between two samples: the window metrics-server
// reports. Samples come every 15 s (kept for an hour: the history) and on demand (the freshest
// only, never in the history), so `kubectl top` right after a pod starts, or 14 s after the
// last round, still gets a figure of now.

/** One reading of the cumulative counters. `instance` tells a restarted container's counters apart. */
export interface RawSample {
  /** Milliseconds since the epoch. */
  time: number;
  instance: string;
  cpuNs?: number;
  memoryWorkingSetBytes?: number;
}

/** A figure as served: usage over [time − windowSeconds, time]. */
export interface UsagePoint {
  time: number;
  windowSeconds: number;
  /** CPU rate in nanocores (1e9 = one core busy); absent when the counter went backwards or is missing. */
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
  workingSetBytes?: number;
}

/** A rate needs this much time between its samples; closer ones say more about timing noise than use. */
export const MIN_WINDOW_MS = 1000;

/** The usage between two samples of the same instance; undefined when none can be said. */
export function usageBetween(previous: RawSample, next: RawSample): UsagePoint | undefined {
  const elapsed = next.time - previous.time;
  if (previous.instance !== next.instance || elapsed < MIN_WINDOW_MS) return undefined;
  const point: UsagePoint = { time: next.time, windowSeconds: elapsed / 1000 };
  if (previous.cpuNs !== undefined && next.cpuNs !== undefined && next.cpuNs >= previous.cpuNs) {
    point.usageNanoCores = Math.round(((next.cpuNs - previous.cpuNs) * 1000) / elapsed);
  }
  if (next.cpuNs !== undefined) point.usageCoreNanoSeconds = next.cpuNs;
  if (next.memoryWorkingSetBytes !== undefined) point.workingSetBytes = next.memoryWorkingSetBytes;
  return point;
}

export class UsageSeries {
  /** Periodic samples, oldest first; one more than the history's points, as each point needs a predecessor. */
  private readonly periodic: RawSample[] = [];
  private onDemand: RawSample | undefined;

  constructor(
    private readonly capacity: number,
    /** When the instance started (ms): its counters were 0 then, a predecessor for its first sample. */
    private startedAt?: number,
  ) {}

  recordPeriodic(sample: RawSample, startedAt?: number): void {
    this.noteStart(sample, startedAt);
    this.periodic.push(sample);
    if (this.periodic.length > this.capacity + 1) this.periodic.splice(0, this.periodic.length - this.capacity - 1);
    if (this.onDemand && this.onDemand.time <= sample.time) this.onDemand = undefined;
  }

  recordOnDemand(sample: RawSample, startedAt?: number): void {
    this.noteStart(sample, startedAt);
    this.onDemand = sample;
  }

  /** Time of the newest sample of either kind. */
  get newest(): number | undefined {
    return this.latest()?.time;
  }

  /**
   * The usage now: the newest sample against the newest periodic one at least MIN_WINDOW_MS
   * older, or against the instance's start when it has none (a container started since).
   */
  current(): UsagePoint | undefined {
    const latest = this.latest();
    if (!latest) return undefined;
    for (let i = this.periodic.length - 1; i >= 0; i--) {
      const earlier = this.periodic[i]!;
      if (earlier === latest || earlier.time > latest.time - MIN_WINDOW_MS) continue;
      if (earlier.instance !== latest.instance) break;
      return usageBetween(earlier, latest);
    }
    if (this.startedAt === undefined) return undefined;
    return usageBetween({ time: this.startedAt, instance: latest.instance, cpuNs: 0 }, latest);
  }

  /** One point per periodic step, oldest first (steps across a restart are left out). */
  history(): UsagePoint[] {
    const points: UsagePoint[] = [];
    for (let i = 1; i < this.periodic.length; i++) {
      const point = usageBetween(this.periodic[i - 1]!, this.periodic[i]!);
      if (point) points.push(point);
    }
    return points;
  }

  private latest(): RawSample | undefined {
    const last = this.periodic[this.periodic.length - 1];
    if (this.onDemand && (!last || this.onDemand.time > last.time)) return this.onDemand;
    return last;
  }

  private noteStart(sample: RawSample, startedAt: number | undefined): void {
    const last = this.latest();
    if (last && last.instance !== sample.instance) this.startedAt = undefined;
    if (startedAt !== undefined) this.startedAt = startedAt;
  }
}

// How many sandboxes the pool keeps ready: as many as the recent burst of pod starts asked for.
// A burst is the number of pods that wanted a pooled sandbox (claimed one, or found none) within
// BURST_WINDOW_MS. The largest recent burst is the target, between min and max; while no burst
// reaches it again, it loses a quarter every DECAY_MS, so a pool sized for a rollout of 50 shrinks
// back over some minutes rather than at once (the next wave of a rollout is usually near).
export const BURST_WINDOW_MS = 10_000;
export const DECAY_MS = 60_000;

export class PoolSizer {
  /** When each pod of the current window asked. */
  private asks: number[] = [];
  private peak: number;
  private peakAt = 0;

  constructor(
    readonly min: number,
    readonly max: number,
    private readonly windowMs = BURST_WINDOW_MS,
    private readonly decayMs = DECAY_MS,
  ) {
    this.peak = min;
  }

  /** A pod wanted a pooled sandbox at `now`. */
  asked(now: number): void {
    this.asks = this.asks.filter((at) => at > now - this.windowMs);
    this.asks.push(now);
    if (this.asks.length >= this.decayed(now)) {
      this.peak = this.asks.length;
      this.peakAt = now;
    }
  }

  /** How many ready sandboxes the pool should hold at `now`. */
  target(now: number): number {
    const recent = this.asks.filter((at) => at > now - this.windowMs).length;
    return Math.min(this.max, Math.max(this.min, this.decayed(now), recent));
  }

  private decayed(now: number): number {
    let size = this.peak;
    for (let steps = Math.floor((now - this.peakAt) / this.decayMs); steps > 0 && size > this.min; steps--) size -= Math.ceil(size / 4);
    return Math.max(size, this.min);
  }
}

// When each of many hollow nodes does its periodic work (a Lease renewal every 10 s, a status
// report every 5 min). A kubelet per machine renews at a random phase; one process serving
// 5,000 nodes must do the same on purpose, or every renewal of the fleet lands in one burst
// each interval. Each member keeps a fixed phase within the interval: member i of N is due at
// i/N of it, so the fleet's calls arrive as an even stream (500/s for 5,000 nodes every 10 s).
export class SpreadSchedule {
  /** Due time per member; the phase of each is fixed by its first due time. */
  private readonly dueAt = new Map<string, number>();

  constructor(readonly intervalMs: number) {
    if (!(intervalMs > 0)) throw new Error('the interval must be positive');
  }

  /** The offset within the interval of member `index` of `count`. */
  static phase(index: number, count: number, intervalMs: number): number {
    return count <= 0 ? 0 : Math.floor(((index % count) * intervalMs) / count);
  }

  /** Adds a member whose turns fall at `phaseMs` past every multiple of the interval after `now`. */
  add(key: string, phaseMs: number, now = Date.now()): void {
    this.dueAt.set(key, this.nextAfter(phaseMs, now));
  }

  remove(key: string): void {
    this.dueAt.delete(key);
  }

  get size(): number {
    return this.dueAt.size;
  }

  /**
   * Up to `limit` members whose turn has come, earliest first, each moved on to its next turn.
   * A member left out by the limit stays due for the next call. A member that fell behind by
   * more than an interval (a slow server) skips the turns it missed rather than catching up
   * in a burst, and keeps its phase, so the stream stays even once the server answers again.
   */
  take(now = Date.now(), limit = Infinity): string[] {
    const due: Array<[string, number]> = [];
    for (const entry of this.dueAt) if (entry[1] <= now) due.push(entry);
    due.sort((a, b) => a[1] - b[1]);
    const taken = due.slice(0, Math.max(0, limit));
    for (const [key, at] of taken) {
      const missed = Math.floor((now - at) / this.intervalMs) + 1;
      this.dueAt.set(key, at + missed * this.intervalMs);
    }
    return taken.map(([key]) => key);
  }

  /** The first time strictly after `now` that is `phaseMs` past a multiple of the interval. */
  private nextAfter(phaseMs: number, now: number): number {
    const phase = ((phaseMs % this.intervalMs) + this.intervalMs) % this.intervalMs;
    const base = now - (now % this.intervalMs) + phase;
    return base > now ? base : base + this.intervalMs;
  }
}

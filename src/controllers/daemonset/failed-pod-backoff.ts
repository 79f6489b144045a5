// Back-off for replacing failed daemon pods, per DaemonSet and node (Kubernetes'
// failedPodsBackoff: 1 s doubling to 15 min). A node that keeps failing the pod is retried
// ever more slowly instead of in a create/fail/delete hot loop.
interface Entry {
  delayMs: number;
  lastMs: number;
}

export class FailedPodBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = 1000,
    private readonly maxMs = 15 * 60_000,
  ) {}

  /** Milliseconds left before the next replacement on this node, or undefined when it may go now. */
  remaining(key: string, now: number): number | undefined {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, now)) return undefined;
    const left = entry.lastMs + entry.delayMs - now;
    return left > 0 ? left : undefined;
  }

  /** Records a replacement now; the next one waits twice as long (from the initial delay after a quiet spell). */
  next(key: string, now: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, now)) this.entries.set(key, { delayMs: this.initialMs, lastMs: now });
    else this.entries.set(key, { delayMs: Math.min(entry.delayMs * 2, this.maxMs), lastMs: now });
  }

  /** Forgets every entry whose key starts with `prefix` (a deleted DaemonSet). */
  forget(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private expired(entry: Entry, now: number): boolean {
    return now - entry.lastMs > 2 * this.maxMs;
  }
}

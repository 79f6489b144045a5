// Per-key back-off in the manner of client-go's flowcontrol.Backoff, the one implementation
// behind the kubelet's CrashLoopBackOff and ImagePullBackOff (10 s doubling to 5 min, the
// defaults here) and the DaemonSet controller's failed-pod back-off (1 s doubling to 15 min).
// The first failure is retried at once; every further failure within the window doubles the
// wait. An entry not renewed for twice the cap (a container that ran for 10 min) starts over.

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  now?: () => number;
}

interface Entry {
  delayMs: number;
  /** When the failure that set the delay happened. */
  lastUpdate: number;
}

export class KeyedBackoff {
  private readonly entries = new Map<string, Entry>();
  readonly initialMs: number;
  readonly maxMs: number;
  private readonly now: () => number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 10_000;
    this.maxMs = options.maxMs ?? 300_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Milliseconds left before a retry for a failure at `eventTime`, counted from that failure
   * (flowcontrol's IsInBackOffSince); 0 when it may go now.
   */
  remaining(key: string, eventTime: number): number {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, eventTime)) return 0;
    return Math.max(0, eventTime + entry.delayMs - this.now());
  }

  /**
   * Milliseconds left before a retry, counted from the last `next` (flowcontrol's
   * IsInBackOffSinceUpdate, as the DaemonSet controller uses it); 0 when it may go now.
   */
  remainingSinceUpdate(key: string, now: number): number {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, now)) return 0;
    return Math.max(0, entry.lastUpdate + entry.delayMs - now);
  }

  /** The current delay (for messages such as "back-off 20s restarting failed container"). */
  delay(key: string): number {
    return this.entries.get(key)?.delayMs ?? 0;
  }

  /** Records a retry for a failure at `eventTime`: the next wait doubles. */
  next(key: string, eventTime: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, eventTime)) {
      this.entries.set(key, { delayMs: this.initialMs, lastUpdate: eventTime });
      return;
    }
    entry.delayMs = Math.min(entry.delayMs * 2, this.maxMs);
    entry.lastUpdate = eventTime;
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every key starting with `prefix` (a pod's containers when the pod goes, a deleted DaemonSet's nodes). */
  resetPrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private expired(entry: Entry, eventTime: number): boolean {
    return eventTime - entry.lastUpdate > 2 * this.maxMs;
  }
}

/** Human form of a delay as the kubelet prints it ("10s", "2m40s", "5m0s"). */
export function formatDelay(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

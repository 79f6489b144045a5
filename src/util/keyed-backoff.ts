// Per-key back-off in the manner of client-go's flowcontrol.Backoff, the one implementation
// behind the kubelet's CrashLoopBackOff and ImagePullBackOff (10 s doubling to 5 min, the
// defaults here), the DaemonSet controller's failed-pod back-off (1 s doubling to 15 min), the
// Job controller's pod-failure back-off, retried endings of pods, and the work queue's rate
// limiter (client/rate-limiter.ts). The first failure is retried at once; every further failure
// within the window doubles the wait (util/backoff.ts computes it from the failures counted).
// An entry not renewed for twice the cap (a container that ran for 10 min) starts over.
import { backoffDelay, type BackoffPolicy } from './backoff.js';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  /** A key with no failure for this long starts over; default twice maxMs, as flowcontrol's; Infinity: only reset() forgets. */
  forgetAfterMs?: number;
  now?: () => number;
}

interface Entry {
  failures: number;
  /** When the latest failure counted happened. */
  lastUpdate: number;
}

export class KeyedBackoff<K = string> {
  private readonly entries = new Map<K, Entry>();
  private readonly policy: BackoffPolicy;
  private readonly forgetAfterMs: number;
  private readonly now: () => number;

  constructor(options: BackoffOptions = {}) {
    this.policy = { initialMs: options.initialMs ?? 10_000, maxMs: options.maxMs ?? 300_000 };
    this.forgetAfterMs = options.forgetAfterMs ?? 2 * this.policy.maxMs;
    this.now = options.now ?? Date.now;
  }

  /**
   * Milliseconds left before a retry for a failure at `eventTime`, counted from that failure
   * (flowcontrol's IsInBackOffSince); 0 when it may go now.
   */
  remaining(key: K, eventTime: number): number {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, eventTime)) return 0;
    return Math.max(0, eventTime + this.delayOf(entry) - this.now());
  }

  /**
   * Milliseconds left before a retry, counted from the latest failure (flowcontrol's
   * IsInBackOffSinceUpdate, as the DaemonSet controller uses it); 0 when it may go now.
   */
  remainingSinceUpdate(key: K, now: number): number {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, now)) return 0;
    return Math.max(0, entry.lastUpdate + this.delayOf(entry) - now);
  }

  /** The current delay (for messages such as "back-off 20s restarting failed container"). */
  delay(key: K): number {
    const entry = this.entries.get(key);
    return entry ? this.delayOf(entry) : 0;
  }

  /** Failures counted since the key was last reset or started over. */
  failures(key: K): number {
    return this.entries.get(key)?.failures ?? 0;
  }

  /**
   * Records a failure at `eventTime`: the next wait doubles. The latest failure stays the one
   * waits count from, whatever order failures are reported in (a Job's pods seen finishing).
   */
  next(key: K, eventTime = this.now()): void {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, eventTime)) {
      this.entries.set(key, { failures: 1, lastUpdate: eventTime });
      return;
    }
    entry.failures++;
    entry.lastUpdate = Math.max(entry.lastUpdate, eventTime);
  }

  reset(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every key starting with `prefix` (a pod's containers when the pod goes, a deleted DaemonSet's nodes). */
  resetPrefix(this: KeyedBackoff<string>, prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private delayOf(entry: Entry): number {
    return backoffDelay(this.policy, entry.failures - 1);
  }

  private expired(entry: Entry, eventTime: number): boolean {
    return eventTime - entry.lastUpdate > this.forgetAfterMs;
  }
}

/** Human form of a delay as the kubelet prints it ("10s", "2m40s", "5m0s"). */
export function formatDelay(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

// The one exponential back-off delay: the initial delay, doubled per attempt up to a cap, with
// optional jitter. Every retry paces itself with it: unkeyed ones through Backoff (watch
// reconnects, start-up steps, exec polls), keyed ones through KeyedBackoff (crash loops, image
// pulls, failed DaemonSet and Job pods, endings of pods, the work queue's rate limiter).

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** Up to this fraction of the delay is added at random, so that clients that failed together do not all retry together. */
  jitter?: number;
}

/** The delay before retry `attempt` (0: the first). */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  // The exponent is held where any delay is far past any cap: 2^1024 is Infinity, and 0 · Infinity NaN.
  const delay = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 1000));
  const jitter = policy.jitter ?? 0;
  return jitter > 0 ? Math.round(delay * (1 + jitter * random())) : delay;
}

/** An unkeyed back-off: each next() is the delay before the following attempt. */
export class Backoff {
  private attempt = 0;

  constructor(private readonly policy: BackoffPolicy) {}

  next(): number {
    return backoffDelay(this.policy, this.attempt++);
  }

  reset(): void {
    this.attempt = 0;
  }
}

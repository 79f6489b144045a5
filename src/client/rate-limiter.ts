// How long a key waits before its next retry, as client-go's workqueue rate limiters.
import { KeyedBackoff } from '../util/keyed-backoff.js';

export interface RateLimiter<K> {
  /** The delay for this key's next retry (and counts the failure). */
  when(key: K): number;
  /** Clears the key's history after it succeeded. */
  forget(key: K): void;
  /** Failures counted for the key since it was last forgotten. */
  retries(key: K): number;
}

/** Per-key exponential back-off, base · 2^failures capped (client-go: 5 ms to 1000 s): the keyed back-off, whose failures count until forget(). */
export class ExponentialRateLimiter<K> implements RateLimiter<K> {
  private readonly backoff: KeyedBackoff<K>;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    this.backoff = new KeyedBackoff<K>({ initialMs: baseMs, maxMs, forgetAfterMs: Infinity });
  }

  when(key: K): number {
    this.backoff.next(key);
    return this.backoff.delay(key);
  }

  forget(key: K): void {
    this.backoff.reset(key);
  }

  retries(key: K): number {
    return this.backoff.failures(key);
  }
}

/**
 * An overall token bucket (client-go: 10/s, burst 100) that keeps a storm of failing keys from
 * flooding the server; combine with the per-key limiter through MaxOfRateLimiter.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly perSecond = 10,
    private readonly burst = 100,
  ) {
    this.tokens = burst;
  }

  when(_key: K): number {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    this.tokens -= 1;
    // A negative balance is a reservation: the wait until it is paid back.
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.perSecond) * 1000);
  }

  forget(_key: K): void {}

  retries(_key: K): number {
    return 0;
  }
}

export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(key: K): number {
    return Math.max(0, ...this.limiters.map((limiter) => limiter.when(key)));
  }

  forget(key: K): void {
    for (const limiter of this.limiters) limiter.forget(key);
  }

  retries(key: K): number {
    return Math.max(0, ...this.limiters.map((limiter) => limiter.retries(key)));
  }
}

// The work queue controllers pull keys from, with client-go's guarantees: a key waiting in the
// queue is held once however often it is added; a key being processed is never handed to a
// second worker, and if it is added meanwhile it is queued again when the first worker calls
// done(); delayed adds and per-key rate-limited retries.
import { ExponentialRateLimiter, type RateLimiter } from './rate-limiter.js';

export interface WorkQueueOptions<K> {
  /** Default: per-key exponential 5 ms → 1000 s. */
  rateLimiter?: RateLimiter<K>;
}

export class WorkQueue<K = string> {
  // A FIFO as an array with a moving head: shift() on a 10,000-key backlog would be quadratic.
  private items: K[] = [];
  private head = 0;
  /** Keys that need processing (queued, or to be re-queued when their worker is done). */
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly waiters: Array<(key: K | undefined) => void> = [];
  /** Delayed adds: the time each key becomes ready, and its timer. */
  private readonly delayed = new Map<K, { at: number; timer: NodeJS.Timeout }>();
  private readonly rateLimiter: RateLimiter<K>;
  private shuttingDown = false;

  constructor(options: WorkQueueOptions<K> = {}) {
    this.rateLimiter = options.rateLimiter ?? new ExponentialRateLimiter<K>();
  }

  add(key: K): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.push(key);
  }

  /** Adds the key after `ms`; of several pending delays for one key, the earliest wins. */
  addAfter(key: K, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const at = Date.now() + ms;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, timer });
  }

  /** Re-adds a key that failed, after its back-off. */
  addRateLimited(key: K): void {
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Ends the key's back-off (call after it was processed successfully). */
  forget(key: K): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: K): number {
    return this.rateLimiter.retries(key);
  }

  /** The next key, waiting for one if needed; undefined once the queue is shut down. */
  get(): Promise<K | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    if (this.head < this.items.length) return Promise.resolve(this.take());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks the key's processing finished; re-queues it if it was added meanwhile. */
  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
  }

  /** Keys waiting to be handed out (not those being processed or delayed). */
  len(): number {
    return this.items.length - this.head;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Stops handing out keys: pending get()s resolve undefined, queued and delayed keys are dropped. */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.items = [];
    this.head = 0;
    for (const resolve of this.waiters.splice(0)) resolve(undefined);
  }

  private push(key: K): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(key);
      this.processing.add(key);
      waiter(key);
      return;
    }
    this.items.push(key);
  }

  private take(): K {
    const key = this.items[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.dirty.delete(key);
    this.processing.add(key);
    return key;
  }
}

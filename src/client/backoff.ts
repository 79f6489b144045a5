// Exponential back-off with jitter, for reconnecting watches and retrying leases. Jitter keeps
// many clients that lost the server at the same moment from all coming back at the same moment.

export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly jitter = 0.2,
  ) {}

  /** The delay before the next attempt; each call doubles it up to the cap. */
  next(): number {
    const base = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    if (base < this.maxMs) this.attempt++;
    return Math.round(base * (1 + this.jitter * Math.random()));
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** A sleep that `wake()` ends early (the informer and elector use it to stop promptly). */
export class Sleeper {
  private timer: NodeJS.Timeout | undefined;
  private resolve: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.timer = setTimeout(() => this.wake(), ms);
    });
  }

  wake(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.();
  }
}

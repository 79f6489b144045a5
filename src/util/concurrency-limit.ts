// At most `limit` calls at once; the others wait their turn, first come first served. A call
// that fails frees its place as one that finishes does.

export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {}

  /** Runs `call` once fewer than `limit` others run, in the order the calls came. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await call();
    } finally {
      const next = this.waiting.shift();
      // The place passes straight to the next waiter: `running` counts it still.
      if (next) next();
      else this.running--;
    }
  }
}

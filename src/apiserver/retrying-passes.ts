// The loop the in-server controllers share (namespace lifecycle, the CRD controller): names to
// pass over, one pass at a time, each name again a second later until its pass says it is done.
// No work queue or Lease: every server on a shared store runs them, and each pass's writes carry
// the object's revision, so of two servers one lands and the other looks again.
export class RetryingPasses {
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;

  constructor(
    /** One pass over a name; false when it must be looked at again later. */
    private readonly pass: (name: string) => Promise<boolean>,
    /** A pass that threw (the name is looked at again too). */
    private readonly onError: (name: string, error: unknown) => void,
    private readonly retryMs = 1000,
  ) {}

  add(name: string): void {
    this.pending.add(name);
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.running || this.pending.size === 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delayMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.running = true;
    for (const name of [...this.pending]) {
      // Taken out first: a name added again during its pass stays for the next round.
      this.pending.delete(name);
      try {
        if (!(await this.pass(name))) this.pending.add(name);
      } catch (error) {
        this.pending.add(name);
        this.onError(name, error);
      }
    }
    this.running = false;
    this.schedule(this.retryMs);
  }
}

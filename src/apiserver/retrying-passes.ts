// The loop the in-server controllers share (namespace lifecycle, the CRD controller, the
// controllers' custom resource access): names to pass over, one pass at a time, each name again
// a second later until its pass says it is done. No work queue or Lease: every server on a shared
// store runs them, and each pass's writes carry the object's revision, so of two servers one
// lands and the other looks again: a pass that lost such a race (409) or found its object gone
// (404) is simply passed again; any other error is logged, and the name passed again too.
export class RetryingPasses {
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;

  constructor(
    /** One pass over a name; false when it must be looked at again later. */
    private readonly pass: (name: string) => Promise<boolean>,
    /** Who runs the loop, for the log. */
    private readonly component: string,
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
        const code = (error as { code?: number }).code;
        if (code !== 409 && code !== 404) console.error(`${this.component}: ${name}: ${(error as Error).message}`);
      }
    }
    this.running = false;
    this.schedule(this.retryMs);
  }
}

// One timer for a whole fleet's periodic calls: every tick it starts the calls whose turn has
// come (SpreadSchedule), at most `concurrency` in flight, so 5,000 Lease renewals every 10 s
// go out as a steady 500/s in small batches rather than as 5,000 timers or one burst. A member
// whose last call has not returned is not called again meanwhile; a slow server makes the
// calls late, never piled up.
import type { Logger } from '../client/index.js';
import { SpreadSchedule } from './spread-schedule.js';

export interface PeriodicCallsOptions {
  name: string;
  intervalMs: number;
  /** Calls in flight at most. */
  concurrency: number;
  call: (key: string) => Promise<void>;
  logger: Logger;
  /** How often due members are looked for. Default 50 ms. */
  tickMs?: number;
}

export interface PeriodicStats {
  calls: number;
  failures: number;
}

export class PeriodicCalls {
  readonly stats: PeriodicStats = { calls: 0, failures: 0 };
  private readonly schedule: SpreadSchedule;
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private lastWarning = 0;

  constructor(private readonly opts: PeriodicCallsOptions) {
    this.schedule = new SpreadSchedule(opts.intervalMs);
  }

  /** Member `index` of `count`: its calls fall at index/count of every interval. */
  add(key: string, index: number, count: number): void {
    this.schedule.add(key, SpreadSchedule.phase(index, count, this.opts.intervalMs));
  }

  remove(key: string): void {
    this.schedule.remove(key);
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.opts.tickMs ?? 50);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.running.values());
  }

  private tick(): void {
    const free = this.opts.concurrency - this.running.size;
    if (free <= 0) return;
    for (const key of this.schedule.take(Date.now(), free)) {
      // Still running from its previous turn: this turn is skipped (the next one comes).
      if (this.running.has(key)) continue;
      this.running.set(key, this.run(key));
    }
  }

  private async run(key: string): Promise<void> {
    this.stats.calls++;
    try {
      await this.opts.call(key);
    } catch (error) {
      this.stats.failures++;
      // One line per 10 s at most: a fleet of 5,000 facing a down server must not flood the log.
      if (Date.now() - this.lastWarning > 10_000) {
        this.lastWarning = Date.now();
        this.opts.logger.warn(`${this.opts.name} failed`, { key, error, failuresSoFar: this.stats.failures });
      }
    } finally {
      this.running.delete(key);
    }
  }
}

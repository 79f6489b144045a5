// Keeps the database from growing without bound: trims watch history to a revision, gives a
// large free list back to the file system, and checkpoints the WAL back to zero length. Pages
// freed by trimming go to SQLite's free list and are reused by later writes, so under churn the
// file settles at live data + history window; after a burst it shrinks back (sqlite-vacuum.ts).
import type Database from 'better-sqlite3';
import type { Statements } from './sqlite-schema.js';
import { pagesToRelease, releaseStep } from './sqlite-vacuum.js';

// History rows deleted per transaction, so a large backlog never holds up writers for long.
const TRIM_CHUNK = 1_000;

export interface CompactorHost {
  currentRevision(): number;
  /** History after this revision is still being read (a list stream); Infinity when none. */
  oldestPinned(): number;
  isClosing(): boolean;
}

export class Compactor {
  /** Every history row at or below this revision is gone. Persisted in `meta`. */
  compacted: number;
  private running: Promise<void> | undefined;
  private checkpointedAt = -1;

  constructor(
    private readonly db: Database.Database,
    private readonly statements: Statements,
    private readonly host: CompactorHost,
  ) {
    this.compacted = statements.compactedRevision.get() as number;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * Trims history up to `toRevision()` (read when this run starts, not when it is queued), then
   * checkpoints the WAL. Runs one at a time.
   */
  run(toRevision: () => number): Promise<void> {
    const run = (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        await this.trim(toRevision());
        const released = await this.releaseFreePages();
        this.checkpoint(released);
      });
    this.running = run;
    const clear = () => {
      if (this.running === run) this.running = undefined;
    };
    run.then(clear, clear);
    return run;
  }

  /** Resolves when no run is in progress; never rejects. */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running.catch(() => undefined);
  }

  /**
   * Deletes at most `maxRows` of the oldest history rows at or below `toRevision`, synchronously.
   * Returns whether rows at or below `toRevision` remain.
   */
  trimStep(toRevision: number, maxRows: number): boolean {
    const target = Math.min(Math.floor(toRevision), this.host.currentRevision(), this.host.oldestPinned());
    if (this.compacted >= target) return false;
    const upTo = Math.min(target, this.compacted + maxRows);
    this.db.transaction(() => {
      this.statements.deleteHistoryUpTo.run(upTo);
      this.statements.setCompacted.run(upTo);
    })();
    this.compacted = upTo;
    return upTo < target;
  }

  private async trim(toRevision: number): Promise<void> {
    while (!this.host.isClosing() && this.trimStep(toRevision, TRIM_CHUNK)) {
      // Let waiting requests run between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Returns whether any pages were released (the checkpoint then shrinks the file). */
  private async releaseFreePages(): Promise<boolean> {
    let left = pagesToRelease(this.db);
    const any = left > 0;
    while (!this.host.isClosing() && left > 0) {
      left = releaseStep(this.db, left);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return any;
  }

  private checkpoint(released: boolean): void {
    const revision = this.host.currentRevision();
    if (this.host.isClosing() || (this.checkpointedAt === revision && !released)) return;
    // No other connection can read the file (exclusive locking), so TRUNCATE always completes.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.checkpointedAt = revision;
  }
}

// Checkpoints the WAL with its fsyncs off the event loop.
//
// In WAL mode SQLite copies the WAL back into the database file from time to time (a
// checkpoint). With synchronous=NORMAL it does so inside the commit that crosses
// wal_autocheckpoint, with two fsyncs: the WAL before the copy, the database after it. Those
// fsyncs were most of the cost of writing: 60,000 creates of 3 KB pods, 50 at a time, straight
// on the store, ran at 9–12 k/s with them and 21–28 k/s with synchronous=OFF, and while the disk
// was busy one commit held the event loop — every request of every client — for 50–190 ms. The
// copy itself takes a millisecond or two.
//
// So the connection runs with synchronous=OFF and no automatic checkpoint, and this class runs
// each checkpoint in NORMAL's order, the fsyncs on libuv's thread pool:
//   1. hold new writes (they wait in the store's queue; reads and everything else go on);
//   2. fdatasync the WAL (a background flush while writes go on keeps little for this one);
//   3. copy the WAL into the database (wal_checkpoint(PASSIVE): with synchronous=OFF, no fsync);
//   4. fdatasync the database;
//   5. release the writes. The first one starts the WAL again from its beginning, only now that
//      the pages it held are on disk, as NORMAL orders it.
// So power loss at any point leaves what NORMAL leaves: a consistent file, the newest commits
// perhaps lost. A commit still returns once it is in the OS, so it survives kill -9.
//
// SQLite keeps the WAL's frame count in this connection's memory; the file tells it too: a frame
// of the current WAL carries the salts of the WAL's header, one left from before the restart
// does not. So "has the WAL reached its mark" is an fstat and two small reads of the page cache.
import { closeSync, fdatasync, fstatSync, openSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** WAL bytes that start a checkpoint: about what SQLite's default autocheckpoint (1,000 pages of 4 KiB) copies. */
export const CHECKPOINT_WAL_BYTES = 4 * 1024 * 1024;
/** How often, at most, commits start a background flush of the WAL. */
const FLUSH_INTERVAL_MS = 10;

export class WalCheckpointer {
  private walFd: number | undefined;
  private readonly dbFd: number;
  private cycle: Promise<void> | undefined;
  private walFlush: Promise<void> | undefined;
  private lastFlush = -Infinity;
  private closed = false;
  /** A sync failed: SQLite syncs and checkpoints by itself again, and reports errors on commits. */
  private handedBack = false;
  private readonly waiting: Array<() => void> = [];
  private readonly frameSize: number;
  /** The frame whose presence starts a checkpoint. */
  private readonly markFrame: number;

  /** `released` runs whenever held writes may go on. */
  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
    private readonly released: () => void,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('synchronous = OFF');
    this.frameSize = WAL_FRAME_HEADER + (db.pragma('page_size', { simple: true }) as number);
    this.markFrame = Math.ceil(CHECKPOINT_WAL_BYTES / this.frameSize);
    // Read-only is enough for fdatasync. SQLite's locks live on its own descriptors (and in
    // exclusive locking mode in its memory), so closing these releases none of them.
    this.dbFd = openSync(path, 'r');
  }

  /** True from the start of a checkpoint until the database is on disk: no write may run. */
  get holdsWrites(): boolean {
    return this.cycle !== undefined;
  }

  /** Resolves when writes may run: at once unless a checkpoint holds them. */
  async writable(): Promise<void> {
    while (this.cycle !== undefined) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /**
   * After each commit: starts a checkpoint once the WAL has reached its mark (looked at on every
   * commit: a look costs microseconds, and one commit may write hundreds of KiB), else flushes the
   * WAL in the background now and then.
   */
  committed(): void {
    if (this.closed || this.handedBack || this.cycle !== undefined) return;
    const fd = this.openWal();
    if (fd === undefined) return;
    if (hasFrame(fd, this.markFrame, this.frameSize)) {
      this.checkpoint().catch(warn);
      return;
    }
    const now = performance.now();
    if (this.walFlush !== undefined || now - this.lastFlush < FLUSH_INTERVAL_MS) return;
    this.lastFlush = now;
    // A failed background flush changes nothing: the checkpoint syncs the WAL itself, and says so if that fails.
    this.walFlush = syncFile(fd)
      .catch(() => undefined)
      .finally(() => (this.walFlush = undefined));
  }

  /**
   * Runs a checkpoint now unless one runs, resolving when it is done; `truncate` (the compactor's,
   * after it trimmed history) also gives the WAL's file space back. Errors reach the caller;
   * writes are released either way.
   */
  checkpoint(truncate = false): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.handedBack) {
      this.db.pragma(`wal_checkpoint(${truncate ? 'TRUNCATE' : 'PASSIVE'})`);
      return Promise.resolve();
    }
    const run = this.run(truncate).catch((error: unknown) => {
      this.handBack();
      throw error;
    });
    this.cycle ??= run.finally(() => {
      this.cycle = undefined;
      for (const resolve of this.waiting.splice(0)) resolve();
      this.released();
    });
    return this.cycle;
  }

  /** Waits for a running checkpoint; afterwards SQLite syncs by itself again (its close checkpoints too). */
  async close(): Promise<void> {
    this.closed = true;
    await this.cycle?.catch(() => undefined);
    await this.walFlush;
    this.db.pragma('synchronous = NORMAL');
    if (this.walFd !== undefined) closeSync(this.walFd);
    closeSync(this.dbFd);
  }

  private async run(truncate: boolean): Promise<void> {
    const wal = this.openWal();
    if (wal === undefined) return;
    await this.walFlush;
    await syncFile(wal);
    // Nothing else reads the file (exclusive locking) and better-sqlite3 keeps no statement open
    // across turns, so the copy is complete; were it not, the WAL would stay for the next time.
    const [result] = this.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    await syncFile(this.dbFd);
    // Nothing is left to copy: TRUNCATE only empties the file.
    if (truncate && result && result.busy === 0 && result.log === result.checkpointed) this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /**
   * After a failed fsync nothing here can say what reached the disk: SQLite takes its syncs back
   * (a commit then fails with its I/O error, as it would have without this class).
   */
  private handBack(): void {
    this.handedBack = true;
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma(`wal_autocheckpoint = ${this.markFrame}`);
  }

  private openWal(): number | undefined {
    try {
      this.walFd ??= openSync(`${this.path}-wal`, 'r');
    } catch {
      // No WAL yet: the next commit makes one.
    }
    return this.walFd;
  }
}

const WAL_HEADER = 32;
const WAL_FRAME_HEADER = 24;
const SALTS_AT = { header: 16, frame: 8 };

/** Whether the WAL holds frame `index` (0-based) of its current generation. */
function hasFrame(fd: number, index: number, frameSize: number): boolean {
  const at = WAL_HEADER + index * frameSize;
  if (fstatSync(fd).size < at + frameSize) return false;
  const header = Buffer.alloc(8);
  const frame = Buffer.alloc(8);
  return readSync(fd, header, 0, 8, SALTS_AT.header) === 8 && readSync(fd, frame, 0, 8, at + SALTS_AT.frame) === 8 && header.equals(frame);
}

function warn(error: unknown): void {
  process.emitWarning(`SQLite store checkpoint failed: ${String(error)}`, 'DroverStoreWarning');
}

function syncFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

// Flushes the WAL to disk in the background, so that the checkpoint SQLite runs inside a commit
// waits less.
//
// With synchronous=NORMAL a commit does not fsync: its pages sit dirty in the page cache. Every
// 4 MiB of WAL, SQLite checkpoints inside the commit that crossed the mark: it fsyncs the WAL (all
// 4 MiB still dirty), copies the pages into the database file and fsyncs that. The commit, and
// every request waiting behind it on the event loop, waited 5–15 ms for it, 16 times a second at
// 2,000 pod creates/s. Here an fdatasync of the WAL runs on libuv's thread pool at most every
// 10 ms while writes go on, so the checkpoint's own fsync of the WAL finds almost nothing left to
// write. Measured in `npm run bench:api`'s create phase: time spent in commits over 4 ms halved.
//
// Only the NORMAL mode needs it: FULL already fsyncs every commit.
import { closeSync, fdatasync, openSync } from 'node:fs';

const INTERVAL_MS = 10;

export class WalPreflusher {
  private fd: number | undefined;
  private flushing: Promise<void> | undefined;
  private lastStarted = -Infinity;
  private closed = false;

  constructor(private readonly walPath: string) {}

  /** Called after every commit; starts a flush unless one runs or one started very recently. */
  committed(): void {
    if (this.closed || this.flushing !== undefined) return;
    const now = performance.now();
    if (now - this.lastStarted < INTERVAL_MS) return;
    const fd = this.openWal();
    if (fd === undefined) return;
    this.lastStarted = now;
    // A failed flush changes nothing for SQLite, which syncs the WAL itself when it checkpoints.
    this.flushing = new Promise<void>((resolve) => fdatasync(fd, () => resolve())).then(() => {
      this.flushing = undefined;
    });
  }

  /** Waits for a running flush and closes the file; call before closing the database. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openWal(): number | undefined {
    if (this.fd !== undefined) return this.fd;
    try {
      // Read-only is enough for fdatasync. SQLite holds no locks on the WAL file (they are on the
      // database file), so this descriptor's close cannot release any of them.
      this.fd = openSync(this.walPath, 'r');
    } catch {
      // No WAL yet: the next commit tries again.
    }
    return this.fd;
  }
}

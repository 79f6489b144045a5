// Giving pages back to the file system. Pages freed by trimming history go to SQLite's free list,
// where later writes reuse them, but the file never shrinks by itself: after a burst of history
// (50,000 create+delete cycles while a slow reader pinned it) state.db stayed at 547 MiB for
// good. With auto_vacuum=INCREMENTAL, `PRAGMA incremental_vacuum(N)` moves N free pages off the
// end of the file, and the next checkpoint truncates it.
import type Database from 'better-sqlite3';

const INCREMENTAL = 2;
/** Free pages kept for later writes to reuse, as a share of the file: churn need not regrow it. */
const FREE_SLACK = 0.1;
/** Below this much to release, the file is left as it is. */
const MIN_RELEASE_BYTES = 1024 * 1024;
/** Pages released per transaction (4 MiB of 16 KiB pages), so writers wait little between steps. */
const RELEASE_STEP_PAGES = 256;

/**
 * Call before the first table is created: a new file then starts in incremental mode. An older
 * file switches only by a VACUUM (see switchToIncrementalVacuum).
 */
export function requestIncrementalVacuum(db: Database.Database): void {
  db.pragma('auto_vacuum = INCREMENTAL');
}

/**
 * Rebuilds a file made without incremental auto-vacuum, once: it copies the whole database
 * (seconds for hundreds of MB), as every database made before this mode existed needs.
 */
export function switchToIncrementalVacuum(db: Database.Database): void {
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return;
  requestIncrementalVacuum(db);
  db.exec('VACUUM');
}

/** How many free pages are worth giving back now; 0 when the free list is small. */
export function pagesToRelease(db: Database.Database): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const surplus = free - Math.floor(pages * FREE_SLACK);
  return surplus * pageSize >= MIN_RELEASE_BYTES ? surplus : 0;
}

/** Releases up to one step of `pages` free pages; returns how many are left to release. */
export function releaseStep(db: Database.Database, pages: number): number {
  const step = Math.min(pages, RELEASE_STEP_PAGES);
  if (step > 0) db.pragma(`incremental_vacuum(${step})`);
  return pages - step;
}

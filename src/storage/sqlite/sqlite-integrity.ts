// SQLite's own consistency check of the database file, for the data checker (src/checker/).
// `quick_check` verifies the b-trees, pages and constraints without the index cross-check of a
// full `integrity_check`: seconds on a large file rather than minutes. It is synchronous, so it
// runs on the server's thread; once per data-check round (20 minutes by default) that is fine.
import type Database from 'better-sqlite3';

/** The problems found (at most `limit`); empty when the file is sound. */
export function quickCheck(db: Database.Database, limit = 20): string[] {
  const rows = db.pragma(`quick_check(${Math.max(1, Math.floor(limit))})`, { simple: false }) as Array<{ quick_check: string }>;
  const messages = rows.map((row) => row.quick_check);
  return messages.length === 1 && messages[0] === 'ok' ? [] : messages;
}

// Opening the database file: pragmas, tables, and every statement the store runs, prepared once.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { requestIncrementalVacuum, switchToIncrementalVacuum } from './sqlite-vacuum.js';
import { plainValue, type ValueExpression } from './sqlite-values.js';

const SCHEMA_VERSION = 1;

// `kv` keeps a rowid and a separate key index on purpose: values are kilobytes, and a
// WITHOUT ROWID table would put them inside the key b-tree, making range counts read every value.
// `history` is append-only by revision; a DELETED row keeps only `prev` (its object is `prev`
// at the delete's revision).
const TABLES = `
  CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS kv (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    revision INTEGER NOT NULL,
    value TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS history (
    revision INTEGER PRIMARY KEY,
    type INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT,
    prev TEXT
  );
`;

const WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024;

export type SyncMode = 'normal' | 'full';

/**
 * The file holds every Secret: only its owner may read it (0600). SQLite gives the WAL it makes
 * the database file's permissions, so setting them on the file, made here if new, covers both;
 * files an older Drover left readable are tightened too.
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

export function openDatabase(path: string, sync: SyncMode): Database.Database {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true });
    ownerOnly(path);
  }
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 250');
    // 16 KiB pages (new files only: a WAL database keeps the size it was created with). A pod is
    // ~3 KB, so 4 KiB pages held one row each; larger pages pack rows, so a commit writes fewer
    // WAL frames and bytes (SQLite's CPU per pod create measured about halved) and checkpoints
    // come about half as often.
    db.pragma('page_size = 16384');
    // Before the first table, so that a new file starts with it (see sqlite-vacuum.ts).
    requestIncrementalVacuum(db);
    // Exclusive locking: one process owns the file (our revision counter lives in memory), and
    // WAL then needs no shared-memory index file.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a commit is in the OS once the call returns, so it survives the process being
    // killed; FULL adds an fsync per commit so it also survives power loss.
    db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
    // The WAL is copied back into the database every 4 MiB of pages: this runs inside a commit
    // and is the main source of write-latency outliers, which grow with the amount copied;
    // smaller values trade them for more fsyncs and cost more throughput than they save.
    db.pragma(`wal_autocheckpoint = ${Math.ceil(WAL_CHECKPOINT_BYTES / (db.pragma('page_size', { simple: true }) as number))}`);
    db.pragma('journal_size_limit = 16777216');
    // 8 MiB of page cache: lists stream through it, and the server's memory budget is small.
    db.pragma('cache_size = -8192');
    db.pragma('temp_store = MEMORY');
    // A write here takes the exclusive lock now, so a second process fails at open, not later.
    db.transaction(() => {
      db.exec(TABLES);
      db.prepare(`INSERT OR IGNORE INTO meta (name, value) VALUES ('schema', ?), ('compacted', 0)`).run(SCHEMA_VERSION);
    }).immediate();
    const version = db.prepare(`SELECT value FROM meta WHERE name = 'schema'`).pluck().get() as number;
    if (version !== SCHEMA_VERSION) throw new Error(`${path}: unsupported schema version ${version}`);
    switchToIncrementalVacuum(db);
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new Error(`${path} is in use by another process`, { cause: error });
    }
    throw error;
  }
}

export type Statements = ReturnType<typeof prepareStatements>;

/** `read` is how a statement reads a stored value as JSON text (see sqlite-values.ts). */
export function prepareStatements(db: Database.Database, read: ValueExpression = plainValue) {
  const statement = (sql: string) => db.prepare(sql);
  const value = read('value');
  return {
    getValue: statement(`SELECT ${value} FROM kv WHERE key = ?`).pluck(),
    /** The value as stored: sealed bytes where the resource is encrypted. */
    getStored: statement('SELECT value FROM kv WHERE key = ?').pluck(),
    // Values as their UTF-8 bytes (a TEXT to BLOB cast copies no characters): what a response
    // writes, without decoding into a JS string and encoding it back.
    getBytes: statement(`SELECT CAST(${value} AS BLOB) FROM kv WHERE key = ?`).pluck(),
    // Where values may be sealed, `stored` (as it is) goes on into history's prev: a rewrite must
    // never store a value decrypted. Where they cannot be, it would only copy the text twice.
    getRow: statement(
      read === plainValue ? 'SELECT revision, value FROM kv WHERE key = ?' : `SELECT revision, ${value} AS value, value AS stored FROM kv WHERE key = ?`,
    ),
    insert: statement('INSERT INTO kv (key, revision, value) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING'),
    update: statement('UPDATE kv SET revision = ?, value = ? WHERE key = ?'),
    remove: statement('DELETE FROM kv WHERE key = ?'),
    appendHistory: statement('INSERT INTO history (revision, type, key, value, prev) VALUES (?, ?, ?, ?, ?)'),
    // LIMIT -1 means no limit in SQLite.
    listFrom: statement(`SELECT key, ${value} FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`).raw(),
    listAfter: statement(`SELECT key, ${value} FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT ?`).raw(),
    listBytesFrom: statement(`SELECT key, CAST(${value} AS BLOB) FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT ?`).raw(),
    listBytesAfter: statement(`SELECT key, CAST(${value} AS BLOB) FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT ?`).raw(),
    countAfter: statement('SELECT count(*) FROM kv WHERE key > ? AND key < ?').pluck(),
    // The key `offset` places into a range, from the key index alone.
    keyAtFrom: statement('SELECT key FROM kv WHERE key >= ? AND key < ? ORDER BY key LIMIT 1 OFFSET ?').pluck(),
    keyAtAfter: statement('SELECT key FROM kv WHERE key > ? AND key < ? ORDER BY key LIMIT 1 OFFSET ?').pluck(),
    historySince: statement(
      `SELECT revision, type, key, ${value}, ${read('prev')} FROM history WHERE revision > ? AND key >= ? AND key < ? ORDER BY revision`,
    ).raw(),
    maxHistoryRevision: statement('SELECT coalesce(max(revision), 0) FROM history').pluck(),
    compactedRevision: statement(`SELECT value FROM meta WHERE name = 'compacted'`).pluck(),
    deleteHistoryUpTo: statement('DELETE FROM history WHERE revision <= ?'),
    setCompacted: statement(`UPDATE meta SET value = ? WHERE name = 'compacted'`),
  };
}

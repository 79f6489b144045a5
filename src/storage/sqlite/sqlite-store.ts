// The embedded Store: one SQLite file in WAL mode, owned by one process.
//
// better-sqlite3 is synchronous, and that is what makes the semantics simple: a write commits,
// bumps the in-memory revision and publishes its event in one uninterrupted step, and a watch
// reads its history and registers for live events in one step, so nothing can fall between.
import type Database from 'better-sqlite3';
import type { KubeObject } from '../../api/meta.js';
import {
  KeyExistsError,
  KeyNotFoundError,
  RevisionConflictError,
  RevisionExpiredError,
  StoreClosedError,
} from '../errors.js';
import type {
  ListOptions,
  ListResult,
  Preconditions,
  RawListResult,
  Store,
  StoreEvent,
  Watch,
  WatchEventType,
  WatchOptions,
} from '../store.js';
import { type RawStoreEvent, WatchHub, withResourceVersion } from '../watch-hub.js';
import { Compactor } from './sqlite-compactor.js';
import { listRange, prefixEnd, type RawPage } from './sqlite-list.js';
import { openDatabase, prepareStatements, type Statements, type SyncMode } from './sqlite-schema.js';

export interface SqliteStoreOptions {
  /** The database file; its directory is created if missing. */
  path: string;
  /** How many of the newest revisions stay available to watch replay. Default 10,000. */
  historyWindow?: number;
  /** How often history is trimmed and the WAL checkpointed. Default 30 s. */
  compactIntervalMs?: number;
  /** 'normal' (default) survives a killed process; 'full' also fsyncs every commit for power loss. */
  sync?: SyncMode;
}

// History rows a write deletes when history has outgrown twice the window (see committed()).
const WRITE_TRIM_ROWS = 500;

const EVENT_TYPES: readonly WatchEventType[] = ['ADDED', 'MODIFIED', 'DELETED'];
const ADDED = 0;
const MODIFIED = 1;
const DELETED = 2;

interface Row {
  revision: number;
  value: string;
}

export class SqliteStore implements Store {
  private readonly statements: Statements;
  private readonly hub = new WatchHub();
  private readonly historyWindow: number;
  private readonly timer: NodeJS.Timeout;
  private readonly compactor: Compactor;
  private revision: number;
  private closing: Promise<void> | undefined;

  private readonly createTx: (key: string, revision: number, json: string) => void;
  private readonly updateTx: (key: string, revision: number, json: string, expected?: number) => Row;
  private readonly deleteTx: (key: string, revision: number, expected?: number) => Row;

  constructor(
    private readonly db: Database.Database,
    options: SqliteStoreOptions,
  ) {
    this.historyWindow = Math.max(1, Math.floor(options.historyWindow ?? 10_000));
    this.statements = prepareStatements(db);
    this.compactor = new Compactor(db, this.statements, {
      currentRevision: () => this.revision,
      isClosing: () => this.closing !== undefined,
    });
    // History always holds the newest write, unless compaction removed all of it; then the
    // compacted revision is the newest one.
    this.revision = Math.max(this.statements.maxHistoryRevision.get() as number, this.compactor.compacted);
    this.createTx = db.transaction(this.createRow.bind(this));
    this.updateTx = db.transaction(this.updateRow.bind(this));
    this.deleteTx = db.transaction(this.deleteRow.bind(this));
    const interval = Math.max(1, options.compactIntervalMs ?? 30_000);
    this.timer = setInterval(() => this.compactInBackground(), interval).unref();
  }

  async get(key: string): Promise<KubeObject | undefined> {
    this.assertOpen();
    const value = this.statements.getValue.get(key) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as KubeObject);
  }

  async list(options: ListOptions): Promise<ListResult> {
    const { values, objects, ...page } = this.listPage(options);
    return { ...page, items: objects ?? values.map((value) => JSON.parse(value) as KubeObject) };
  }

  async listRaw(options: ListOptions): Promise<RawListResult> {
    const { values, objects: _parsedForFilter, ...page } = this.listPage(options);
    return { ...page, items: values };
  }

  async create(key: string, object: KubeObject): Promise<KubeObject> {
    this.assertOpen();
    const revision = this.revision + 1;
    const stored = withResourceVersion(object, revision);
    const json = JSON.stringify(stored);
    this.createTx(key, revision, json);
    this.committed({ type: 'ADDED', key, revision, value: json });
    return stored;
  }

  async update(key: string, object: KubeObject, preconditions?: Preconditions): Promise<KubeObject> {
    this.assertOpen();
    const revision = this.revision + 1;
    const stored = withResourceVersion(object, revision);
    const json = JSON.stringify(stored);
    const prev = this.updateTx(key, revision, json, preconditions?.expectedRevision);
    this.committed({ type: 'MODIFIED', key, revision, value: json, prevValue: prev.value });
    return stored;
  }

  async delete(key: string, preconditions?: Preconditions): Promise<KubeObject> {
    this.assertOpen();
    const revision = this.revision + 1;
    const prev = this.deleteTx(key, revision, preconditions?.expectedRevision);
    this.committed({ type: 'DELETED', key, revision, prevValue: prev.value });
    return withResourceVersion(JSON.parse(prev.value) as KubeObject, revision);
  }

  watch(options: WatchOptions, onEvent: (event: StoreEvent) => void, onError?: (error: Error) => void): Watch {
    this.assertOpen();
    const { prefix, fromRevision, filter } = options;
    if (fromRevision === undefined) {
      return this.hub.add({ prefix, afterRevision: this.revision, filter }, [], onEvent, onError);
    }
    if (!Number.isSafeInteger(fromRevision) || fromRevision < 0) {
      throw new RangeError(`fromRevision must be a non-negative integer, got ${fromRevision}`);
    }
    const oldest = this.compactor.compacted;
    if (fromRevision < oldest) throw new RevisionExpiredError(fromRevision, oldest);
    const replay = this.history(prefix, fromRevision);
    return this.hub.add({ prefix, afterRevision: fromRevision, filter }, replay, onEvent, onError);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  async oldestRevision(): Promise<number> {
    this.assertOpen();
    return this.compactor.compacted;
  }

  /**
   * Drops watch history up to `toRevision` (default: all but the newest `historyWindow`
   * revisions), then checkpoints the WAL so neither file grows under churn. The timer calls this;
   * tests may call it directly.
   */
  compact(toRevision?: number): Promise<void> {
    this.assertOpen();
    return this.compactor.run(() => toRevision ?? this.revision - this.historyWindow);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private listPage(options: ListOptions): RawPage {
    this.assertOpen();
    const state = { currentRevision: this.revision, compactedRevision: this.compactor.compacted };
    return listRange(this.statements, options, state);
  }

  private createRow(key: string, revision: number, json: string): void {
    // ON CONFLICT DO NOTHING reports an existing key as zero changes, without a read first.
    if (this.statements.insert.run(key, revision, json).changes === 0) throw new KeyExistsError(key);
    this.statements.appendHistory.run(revision, ADDED, key, json, null);
  }

  private updateRow(key: string, revision: number, json: string, expected?: number): Row {
    const prev = this.currentRow(key, expected);
    this.statements.update.run(revision, json, key);
    this.statements.appendHistory.run(revision, MODIFIED, key, json, prev.value);
    return prev;
  }

  private deleteRow(key: string, revision: number, expected?: number): Row {
    const prev = this.currentRow(key, expected);
    this.statements.remove.run(key);
    this.statements.appendHistory.run(revision, DELETED, key, null, prev.value);
    return prev;
  }

  private currentRow(key: string, expected: number | undefined): Row {
    const row = this.statements.getRow.get(key) as Row | undefined;
    if (row === undefined) throw new KeyNotFoundError(key);
    if (expected !== undefined && expected !== row.revision) {
      throw new RevisionConflictError(key, expected, row.revision);
    }
    return row;
  }

  /** Runs after the transaction commits, so no watcher ever sees a write that rolled back. */
  private committed(event: RawStoreEvent): void {
    this.revision = event.revision;
    this.hub.publish(event);
    // A write burst between timer runs would otherwise grow history (and the file) with the
    // rate. A small synchronous step keeps up even with callers that never yield to the loop.
    if (this.revision - this.compactor.compacted > 2 * this.historyWindow && !this.compactor.busy) {
      try {
        this.compactor.trimStep(this.revision - this.historyWindow, WRITE_TRIM_ROWS);
      } catch (error) {
        // The write itself has committed; its caller must not see this as a failed write.
        warn(error);
      }
    }
  }

  private history(prefix: string, afterRevision: number): RawStoreEvent[] {
    const rows = this.statements.historySince.all(afterRevision, prefix, prefixEnd(prefix)) as Array<
      [number, number, string, string | null, string | null]
    >;
    return rows.map(([revision, type, key, value, prev]) => ({
      type: EVENT_TYPES[type] ?? 'MODIFIED',
      key,
      revision,
      ...(value === null ? {} : { value }),
      ...(prev === null ? {} : { prevValue: prev }),
    }));
  }

  private compactInBackground(): void {
    if (this.closing !== undefined || this.compactor.busy) return;
    this.compact().catch(warn);
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.timer);
    await this.compactor.idle();
    this.hub.endAll(new StoreClosedError());
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new StoreClosedError();
  }
}

function warn(error: unknown): void {
  process.emitWarning(`SQLite store compaction failed: ${String(error)}`, 'DroverStoreWarning');
}

/** Opens (creating if needed) the store at `options.path`. Only one process may hold a file. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const db = openDatabase(options.path, options.sync ?? 'normal');
  try {
    return new SqliteStore(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
}

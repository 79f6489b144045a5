// The embedded Store: one SQLite file in WAL mode, owned by one process.
//
// better-sqlite3 is synchronous, and that is what makes the semantics simple: a write commits,
// bumps the in-memory revision and publishes its event in one uninterrupted step, and a watch
// reads its history and registers for live events in one step, so nothing can fall between.
import type Database from 'better-sqlite3';
import type { KubeObject } from '../../api/meta.js';
import {
  KeyExistsError,
  MAX_VALUE_BYTES,
  ValueTooLargeError,
  KeyNotFoundError,
  RevisionConflictError,
  RevisionExpiredError,
  StoreClosedError,
  StoreError,
} from '../errors.js';
import type {
  ListOptions,
  ListResult,
  ListStream,
  ListStreamOptions,
  Preconditions,
  RawListResult,
  Store,
  StoreEvent,
  Watch,
  WatchEventType,
  WatchOptions,
} from '../store.js';
import { rememberStoredJson } from '../stored-json.js';
import { type RawStoreEvent, WatchHub, withResourceVersion } from '../watch-hub.js';
import { Compactor } from './sqlite-compactor.js';
import { listRange, listRevisionOf, onePageStream, prefixEnd, streamRange, type ListState } from './sqlite-list.js';
import { openListStream, streamStatements, type StreamStatements } from './sqlite-list-stream.js';
import { quickCheck } from './sqlite-integrity.js';
import { openDatabase, prepareStatements, type Statements, type SyncMode } from './sqlite-schema.js';
import { WalPreflusher } from './wal-preflush.js';
import { valueExpression } from './sqlite-values.js';
import type { ValueTransformer } from '../encryption/transformer.js';
import { markStale } from '../stale-values.js';

export interface SqliteStoreOptions {
  /** The database file; its directory is created if missing. */
  path: string;
  /** How many of the newest revisions stay available to watch replay. Default 10,000. */
  historyWindow?: number;
  /** How often history is trimmed and the WAL checkpointed. Default 30 s. */
  compactIntervalMs?: number;
  /** 'normal' (default) survives a killed process; 'full' also fsyncs every commit for power loss. */
  sync?: SyncMode;
  /** Encrypts the values of the resources it names (--encryption-provider-config). */
  transformer?: ValueTransformer;
}

// History rows a write deletes when history has outgrown twice the window (see committed()).
const WRITE_TRIM_ROWS = 500;

const EVENT_TYPES: readonly WatchEventType[] = ['ADDED', 'MODIFIED', 'DELETED'];
const ADDED = 0;
const MODIFIED = 1;
const DELETED = 2;

interface Row {
  revision: number;
  /** The JSON text. */
  value: string;
  /** The value as stored, where it may be sealed (see sqlite-values.ts). */
  stored?: string | Uint8Array;
}

interface Settlement {
  resolve: (object: KubeObject) => void;
  reject: (error: Error) => void;
}

type WriteRequest =
  | { op: 'create'; key: string; object: KubeObject }
  | { op: 'update'; key: string; object: KubeObject; expected: number | undefined }
  | { op: 'delete'; key: string; expected: number | undefined };

type PendingWrite = WriteRequest & Settlement;

type WriteOutcome = { stored: KubeObject; event: RawStoreEvent } | { error: StoreError };

export class SqliteStore implements Store {
  private readonly statements: Statements;
  private readonly streamStatements: StreamStatements;
  /** Revisions open list streams read at → how many streams (see sqlite-list-stream.ts). */
  private readonly pins = new Map<number, number>();
  private readonly hub = new WatchHub();
  private readonly historyWindow: number;
  private readonly timer: NodeJS.Timeout;
  private readonly compactor: Compactor;
  private readonly preflusher: WalPreflusher | undefined;
  private revision: number;
  private readonly transformer: ValueTransformer | undefined;
  private closing: Promise<void> | undefined;

  private readonly batchTx: (writes: PendingWrite[]) => WriteOutcome[];
  /** Writes waiting for the next group commit (see enqueue). */
  private pending: PendingWrite[] = [];

  constructor(
    private readonly db: Database.Database,
    options: SqliteStoreOptions,
  ) {
    this.historyWindow = Math.max(1, Math.floor(options.historyWindow ?? 10_000));
    // An in-memory database has no WAL file, and with sync 'full' every commit fsyncs already.
    const syncedOnlyAtCheckpoints = options.path !== ':memory:' && (options.sync ?? 'normal') === 'normal';
    this.preflusher = syncedOnlyAtCheckpoints ? new WalPreflusher(`${options.path}-wal`) : undefined;
    this.transformer = options.transformer;
    const read = valueExpression(db, options.transformer);
    this.statements = prepareStatements(db, read);
    this.streamStatements = streamStatements(db, read);
    this.compactor = new Compactor(db, this.statements, {
      currentRevision: () => this.revision,
      oldestPinned: () => this.oldestPin(),
      isClosing: () => this.closing !== undefined,
    });
    // History always holds the newest write, unless compaction removed all of it; then the
    // compacted revision is the newest one.
    this.revision = Math.max(this.statements.maxHistoryRevision.get() as number, this.compactor.compacted);
    this.batchTx = db.transaction(this.applyBatch.bind(this));
    const interval = Math.max(1, options.compactIntervalMs ?? 30_000);
    this.timer = setInterval(() => this.compactInBackground(), interval).unref();
  }

  async get(key: string): Promise<KubeObject | undefined> {
    this.assertOpen();
    if (this.transformer !== undefined) return this.getDecoded(key, this.transformer);
    const value = this.statements.getValue.get(key) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as KubeObject);
  }

  /** get() where values may be sealed: decoded here rather than in SQL, to learn whether it is stale. */
  private getDecoded(key: string, transformer: ValueTransformer): KubeObject | undefined {
    const stored = this.statements.getStored.get(key) as string | Uint8Array | undefined;
    if (stored === undefined) return undefined;
    const { text, stale } = transformer.fromStorage(key, stored);
    const object = JSON.parse(text) as KubeObject;
    if (stale) markStale(object);
    return object;
  }

  async getRaw(key: string): Promise<Uint8Array | undefined> {
    this.assertOpen();
    return this.statements.getBytes.get(key) as Uint8Array | undefined;
  }

  async list(options: ListOptions): Promise<ListResult> {
    this.assertOpen();
    const { values, objects, ...page } = listRange(this.statements, options, this.listState());
    return { ...page, items: objects ?? values.map((value) => JSON.parse(value) as KubeObject) };
  }

  async listRaw(options: ListOptions): Promise<RawListResult> {
    this.assertOpen();
    const { values, objects: _parsedForFilter, ...page } = listRange(this.statements, options, this.listState(), true);
    return { ...page, items: values };
  }

  listStream(options: ListStreamOptions): ListStream {
    this.assertOpen();
    const state = this.listState();
    // A page of an earlier revision (a continued list, an Exact read) is rebuilt from history as
    // list() does; it is one page of at most `limit` items, so it is read at once.
    if (listRevisionOf(options, state) < state.currentRevision) return onePageStream(listRange(this.statements, options, state), options.separator);
    const range = streamRange(this.statements, options, state);
    const host = {
      statements: this.streamStatements,
      assertOpen: () => this.assertOpen(),
      compactedRevision: () => this.compactor.compacted,
      pin: (revision: number) => {
        this.pins.set(revision, (this.pins.get(revision) ?? 0) + 1);
        return () => {
          const count = (this.pins.get(revision) ?? 1) - 1;
          if (count > 0) this.pins.set(revision, count);
          else this.pins.delete(revision);
        };
      },
    };
    return openListStream(host, range, this.revision, options.separator);
  }

  create(key: string, object: KubeObject): Promise<KubeObject> {
    return this.enqueue({ op: 'create', key, object });
  }

  update(key: string, object: KubeObject, preconditions?: Preconditions): Promise<KubeObject> {
    return this.enqueue({ op: 'update', key, object, expected: preconditions?.expectedRevision });
  }

  delete(key: string, preconditions?: Preconditions): Promise<KubeObject> {
    return this.enqueue({ op: 'delete', key, expected: preconditions?.expectedRevision });
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

  /** Problems SQLite's quick_check finds in the file; empty when it is sound (see sqlite-integrity.ts). */
  quickCheck(): string[] {
    this.assertOpen();
    return quickCheck(this.db);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /**
   * The oldest revision a list stream still holds history back for. A stream may keep at most one
   * more history window than a watch gets (history up to twice the window): one reading a 20 MB
   * list slowly through 50,000 create+delete cycles otherwise kept all 100,000 history rows
   * (`npm run bench:hardening`: state.db 53 -> 293 MiB; bounded, 84 MiB). Older streams are cut:
   * their next page throws RevisionExpiredError once compaction has passed them.
   */
  private oldestPin(): number {
    const floor = this.revision - 2 * this.historyWindow;
    let oldest = Infinity;
    for (const revision of this.pins.keys()) if (revision >= floor && revision < oldest) oldest = revision;
    return oldest;
  }

  private listState(): ListState {
    return { currentRevision: this.revision, compactedRevision: this.compactor.compacted };
  }

  /**
   * Group commit: writes issued during one turn of the event loop are committed together in one
   * transaction at the next turn. A commit costs far more than a row, so under concurrent load
   * this multiplies write throughput; a write is still acknowledged only after its commit.
   */
  private enqueue(write: WriteRequest): Promise<KubeObject> {
    if (this.closing !== undefined) return Promise.reject(new StoreClosedError());
    return new Promise((resolve, reject) => {
      if (this.pending.push({ ...write, resolve, reject } as PendingWrite) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    let outcomes: WriteOutcome[];
    try {
      outcomes = this.batchTx(batch);
    } catch (error) {
      // The transaction rolled back as a whole: nothing of the batch was written.
      for (const write of batch) write.reject(error as Error);
      return;
    }
    this.preflusher?.committed();
    batch.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) return write.reject(outcome.error);
      this.committed(outcome.event);
      write.resolve(outcome.stored);
    });
  }

  /**
   * Runs inside the batch transaction. Each write checks its preconditions before it changes
   * anything, so a write that fails (conflict, missing key) leaves no trace and does not
   * abort the others; any other error aborts the whole batch.
   */
  private applyBatch(writes: PendingWrite[]): WriteOutcome[] {
    let revision = this.revision;
    return writes.map((write) => {
      try {
        const outcome = this.applyWrite(write, revision + 1);
        revision++;
        return outcome;
      } catch (error) {
        if (error instanceof StoreError) return { error };
        throw error;
      }
    });
  }

  private applyWrite(write: PendingWrite, revision: number): WriteOutcome {
    const { key } = write;
    if (write.op === 'delete') {
      const prev = this.deleteRow(key, revision, write.expected);
      const stored = withResourceVersion(JSON.parse(prev.value) as KubeObject, revision);
      return { stored, event: { type: 'DELETED', key, revision, prevValue: prev.value } };
    }
    const stored = withResourceVersion(write.object, revision);
    const json = JSON.stringify(stored);
    // A UTF-16 length under a third of the limit cannot reach it in UTF-8 bytes.
    if (json.length > MAX_VALUE_BYTES / 3 && Buffer.byteLength(json) > MAX_VALUE_BYTES) throw new ValueTooLargeError(key, Buffer.byteLength(json));
    rememberStoredJson(stored, json);
    const value = this.transformer === undefined ? json : this.transformer.toStorage(key, json);
    if (write.op === 'create') {
      this.createRow(key, revision, value);
      return { stored, event: { type: 'ADDED', key, revision, value: json } };
    }
    const prev = this.updateRow(key, revision, value, write.expected);
    return { stored, event: { type: 'MODIFIED', key, revision, value: json, prevValue: prev.value } };
  }

  /** `value` is the JSON text, or its sealed bytes where the resource is encrypted. */
  private createRow(key: string, revision: number, value: string | Buffer): void {
    // ON CONFLICT DO NOTHING reports an existing key as zero changes, without a read first.
    if (this.statements.insert.run(key, revision, value).changes === 0) throw new KeyExistsError(key);
    this.statements.appendHistory.run(revision, ADDED, key, value, null);
  }

  private updateRow(key: string, revision: number, value: string | Buffer, expected?: number): Row {
    const prev = this.currentRow(key, expected);
    this.statements.update.run(revision, value, key);
    this.statements.appendHistory.run(revision, MODIFIED, key, value, prev.stored ?? prev.value);
    return prev;
  }

  private deleteRow(key: string, revision: number, expected?: number): Row {
    const prev = this.currentRow(key, expected);
    this.statements.remove.run(key);
    this.statements.appendHistory.run(revision, DELETED, key, null, prev.stored ?? prev.value);
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
    const rows = this.statements.historySince.all(afterRevision, prefix, prefixEnd(prefix)) as Array<[number, number, string, string | null, string | null]>;
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
    // Writes accepted before close() still commit.
    this.flush();
    await this.compactor.idle();
    this.hub.endAll(new StoreClosedError());
    await this.preflusher?.close();
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

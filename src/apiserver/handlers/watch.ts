// Watch streams: newline-delimited JSON events (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR),
// as Kubernetes serves them for ?watch=1. A watch without a resourceVersion (or with "0")
// first replays the current objects as ADDED; a resourceVersion older than the store's
// history window gets an ERROR event carrying 410 Expired.
import type { KubeObject } from '../../api/meta.js';
import { RevisionExpiredError, StoreUnavailableError } from '../../storage/errors.js';
import { storedJson } from '../../storage/stored-json.js';
import type { StoreEvent, Watch, WatchOptions } from '../../storage/store.js';
import { badRequest, expired, toApiError } from '../errors.js';
import { negotiate } from '../http-io.js';
import { stallDeadline, writeAsRead } from '../response-stream.js';
import { buildFilter } from '../registry/filters.js';
import type { Collection, CollectionWatchOptions } from '../registry/collection.js';
import { parseIncludeObject, toTable, type IncludeObject } from '../table.js';
import { parseBoolean, parseNonNegativeInt, plainInteger, type ResourceRequest } from './context.js';

const DEFAULT_TIMEOUT_SECONDS = 30 * 60;
/** The longest a timer runs (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
/** How often an idle watch with allowWatchBookmarks gets a BOOKMARK. */
export const BOOKMARK_INTERVAL_MS = 30_000;
/**
 * A watcher this far behind is cut off (it will re-list), as Kubernetes closes a watch whose
 * buffer overflows; one that takes nothing for WRITE_STALL_MS is cut too (see response-stream.ts).
 * Watch lines are shared between watchers, so this bounds what one can pin, not what each costs.
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

type EventType = StoreEvent['type'] | 'BOOKMARK' | 'ERROR';

interface StreamSettings {
  asTable: boolean;
  include: IncludeObject;
  filter: WatchOptions['filter'];
  allowBookmarks: boolean;
  timeoutSeconds: number;
  /** Undefined: start from the current state, replaying it as ADDED when sendInitial. */
  fromRevision: number | undefined;
  sendInitial: boolean;
  /** The client asked for sendInitialEvents explicitly and so expects the end-of-initial bookmark. */
  initialEventsBookmark: boolean;
}

/** As in Kubernetes, 0 or none means the server's default; beyond a timer's range, its range. */
function watchTimeoutSeconds(asked: number | undefined): number {
  if (asked === undefined || asked === 0) return DEFAULT_TIMEOUT_SECONDS;
  return Math.min(asked, MAX_TIMEOUT_SECONDS);
}

export async function serveWatch(ctx: ResourceRequest): Promise<void> {
  const { req, query, def } = ctx;
  let filter = buildFilter(def, query.get('labelSelector'), query.get('fieldSelector'));
  if (ctx.path.name) {
    const byName = buildFilter(def, null, `metadata.name=${ctx.path.name}`)!;
    const base = filter;
    filter = base ? (o) => byName(o) && base(o) : byName;
  }
  const fromRevision = parseRevision(query.get('resourceVersion'));
  const explicitInitial = query.has('sendInitialEvents');
  const settings: StreamSettings = {
    asTable: negotiate(req.headers.accept, true).table,
    include: parseIncludeObject(query.get('includeObject')),
    filter,
    allowBookmarks: parseBoolean(query, 'allowWatchBookmarks'),
    timeoutSeconds: watchTimeoutSeconds(parseNonNegativeInt(query, 'timeoutSeconds')),
    fromRevision,
    sendInitial: explicitInitial ? parseBoolean(query, 'sendInitialEvents') : fromRevision === undefined,
    initialEventsBookmark: explicitInitial,
  };
  // A watch on a namespace that does not exist yet stays open and sees what is created there.
  await startStream(ctx, settings);
}

function parseRevision(value: string | null): number | undefined {
  if (value === null || value === '' || value === '0') return undefined;
  const revision = plainInteger(value);
  if (revision === undefined) throw badRequest(`resourceVersion: Invalid value: "${value}": must be an integer`);
  return revision;
}

async function startStream(ctx: ResourceRequest, settings: StreamSettings): Promise<void> {
  const { res, def, registry } = ctx;
  const { asTable, include, filter, allowBookmarks, timeoutSeconds, sendInitial } = settings;
  const objects = registry.collection(def, ctx.path.namespace);
  let columnsSent = false;
  const encode = (type: EventType, object: unknown): string | Buffer => {
    if (asTable && (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED')) {
      object = toTable(def, [object as KubeObject], {}, include, !columnsSent);
      columnsSent = true;
      return JSON.stringify({ type, object }) + '\n';
    }
    return encodeLine(type, object);
  };

  let watch: Watch | undefined;
  let closed = false;
  const timers: NodeJS.Timeout[] = [];
  const close = () => {
    if (closed) return;
    closed = true;
    watch?.stop();
    timers.forEach(clearTimeout);
    res.end();
  };
  const stalled = stallDeadline(res);
  const write = (line: string | Buffer) => {
    if (!res.write(line)) stalled();
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      close();
      // What is queued would still wait for the client: a watcher cut for falling behind re-lists.
      res.destroy();
    }
  };
  const send = (type: EventType, object: unknown) => {
    if (!closed) write(encode(type, object));
  };

  let fromRevision = settings.fromRevision;
  let initial: InitialEvents | undefined;
  if (fromRevision === undefined) {
    if (sendInitial) initial = await initialEvents(objects, settings, encode);
    fromRevision = initial?.revision ?? (await objects.currentRevision());
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  ctx.req.on('close', close);
  res.on('error', close);

  if (initial !== undefined) {
    // The initial objects go out as the client reads them, before any live event is sent.
    const events = initial;
    try {
      if (!(await writeAsRead(res, () => (closed ? undefined : events.next()))) || closed) return close();
    } catch (error) {
      if (!(error instanceof RevisionExpiredError)) throw error;
      send('ERROR', expired(error.message).toStatus());
      return close();
    } finally {
      events.close();
    }
  }
  if (allowBookmarks && settings.initialEventsBookmark && sendInitial) {
    send('BOOKMARK', bookmark(ctx, fromRevision, true));
  }
  let lastRevision = fromRevision;
  const watchOptions: CollectionWatchOptions = { fromRevision };
  if (filter) watchOptions.filter = filter;
  try {
    watch = objects.watch(
      watchOptions,
      (event) => {
        lastRevision = event.revision;
        if (closed) return;
        if (asTable) send(event.type, event.object);
        else write(encodeEvent(event));
      },
      (error) => {
        // A store that lost its backend (etcd down) says so with 503; a client re-watches from its
        // last resourceVersion rather than re-listing, as it would after 410.
        const status = error instanceof StoreUnavailableError ? toApiError(error) : expired(error.message);
        send('ERROR', status.toStatus());
        close();
      },
    );
  } catch (error) {
    if (!(error instanceof RevisionExpiredError)) throw error;
    send('ERROR', expired(`too old resource version: ${fromRevision} (${error.oldest})`).toStatus());
    close();
    return;
  }
  timers.push(setTimeout(close, timeoutSeconds * 1000));
  if (allowBookmarks) {
    // Never past an event the watch has not sent: a client resumes from a bookmark's revision.
    const safeRevision = async () => watch?.deliveredThrough?.() ?? (await objects.currentRevision());
    const tick = () => {
      safeRevision().then(
        (current) => {
          send('BOOKMARK', bookmark(ctx, Math.max(lastRevision, current), false));
          if (!closed) timers.push(setTimeout(tick, BOOKMARK_INTERVAL_MS));
        },
        // The store is closing: the watch ends with it.
        () => close(),
      );
    };
    timers.push(setTimeout(tick, BOOKMARK_INTERVAL_MS));
  }
}

/** A watch's initial objects as ADDED lines, produced as the client reads them. */
interface InitialEvents {
  revision: number;
  /** The next line or lines; undefined when done. Throws RevisionExpiredError when cut. */
  next(): string | Buffer | undefined;
  close(): void;
}

const ADDED_LINE_START = '{"type":"ADDED","object":';

async function initialEvents(
  objects: Collection,
  settings: StreamSettings,
  encode: (type: EventType, object: unknown) => string | Buffer,
): Promise<InitialEvents> {
  // The stored JSON, framed into ADDED lines by the store a page at a time: a watcher that does
  // not read holds one page, not the collection parsed (100 such watchers of a 14 MB list did).
  const stream = !settings.filter && !settings.asTable ? objects.listStream({ separator: `}\n${ADDED_LINE_START}` }) : undefined;
  if (stream) {
    const next = () => {
      const page = stream.next();
      return page === undefined ? undefined : `${ADDED_LINE_START}${page}}\n`;
    };
    return { revision: stream.revision, next, close: () => stream.close() };
  }
  const snapshot = await objects.list(settings.filter ? { filter: settings.filter } : {});
  const items = snapshot.items;
  let sent = 0;
  const next = () => (sent < items.length ? encode('ADDED', items[sent++]) : undefined);
  return { revision: snapshot.revision, next, close: () => (items.length = 0) };
}

/**
 * The store hands every watcher of a write the same event, so its JSON line is encoded once and
 * shared: with 100 watchers that is 1 encoding per event instead of 100. The line is built from
 * the text the store wrote, without parsing it, and kept as bytes, ready for sockets.
 */
const sharedLines = new WeakMap<StoreEvent, Buffer>();

function encodeEvent(event: StoreEvent): Buffer {
  let line = sharedLines.get(event);
  if (line === undefined) {
    line = Buffer.from(eventLine(event.type, event.objectJson ?? storedJson(event.object) ?? JSON.stringify(event.object)));
    sharedLines.set(event, line);
  }
  return line;
}

/** One event line for objects that are not a store event's (bookmarks, errors, the initial list). */
function encodeLine(type: EventType, object: unknown): string {
  const json = typeof object === 'object' && object !== null ? storedJson(object) : undefined;
  return json === undefined ? JSON.stringify({ type, object }) + '\n' : eventLine(type, json);
}

/** A watch line around an object's JSON text, written as is. */
function eventLine(type: EventType, objectJson: string): string {
  return `{"type":"${type}","object":${objectJson}}\n`;
}

function bookmark(ctx: ResourceRequest, revision: number, initialEventsEnd: boolean): Record<string, unknown> {
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata['annotations'] = { 'k8s.io/initial-events-end': 'true' };
  const apiVersion = ctx.def.group ? `${ctx.def.group}/${ctx.def.version}` : ctx.def.version;
  return { kind: ctx.def.kind, apiVersion, metadata };
}

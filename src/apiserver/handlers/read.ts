// GET of one object and of collections (list), as JSON, YAML or Table.
import { apiVersionOf } from '../../api/resource.js';
import type { ServerResponse } from 'node:http';
import type { ListStream } from '../../storage/store.js';
import { InvalidContinueTokenError, RevisionExpiredError } from '../../storage/errors.js';
import { badRequest, expired } from '../errors.js';
import { negotiate, writeJson, writeJsonText } from '../http-io.js';
import { writeAsRead } from '../response-stream.js';
import { buildFilter } from '../registry/filters.js';
import type { CollectionListOptions } from '../registry/collection.js';
import { parseIncludeObject, toTable } from '../table.js';
import { parseNonNegativeInt, type ResourceRequest } from './context.js';
import { listRevision } from './list-revision.js';

export async function getObject(ctx: ResourceRequest): Promise<void> {
  const format = negotiate(ctx.req.headers.accept, true);
  if (format.type === 'json' && !format.table) {
    // The stored bytes as they are: no parse and re-serialization of an object nobody inspects.
    const bytes = await ctx.registry.getRaw(ctx.def, ctx.path.namespace, ctx.path.name!);
    if (bytes) return writeJsonText(ctx.res, 200, bytes);
  }
  const object = await ctx.registry.get(ctx.def, ctx.path.namespace, ctx.path.name!);
  if (format.table) {
    const include = parseIncludeObject(ctx.query.get('includeObject'));
    writeJson(ctx.res, 200, toTable(ctx.def, [object], { resourceVersion: object.metadata.resourceVersion }, include));
    return;
  }
  writeJson(ctx.res, 200, object, format);
}

export async function listObjects(ctx: ResourceRequest): Promise<void> {
  const format = negotiate(ctx.req.headers.accept, true);
  const include = parseIncludeObject(ctx.query.get('includeObject'));
  const filter = buildFilter(ctx.def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  const limit = parseNonNegativeInt(ctx.query, 'limit');
  const token = ctx.query.get('continue') || undefined;
  const options: CollectionListOptions = {};
  if (filter) options.filter = filter;
  if (limit) options.limit = limit;
  if (token) options.continue = token;
  const exact = await listRevision(ctx.registry, ctx.query);
  if (exact !== undefined) options.revision = exact;
  // A namespace that does not exist holds nothing: 200 and an empty list, as in Kubernetes.
  const meta = (result: { revision: number; continue?: string; remainingItemCount?: number }) => {
    const listMeta: Record<string, unknown> = { resourceVersion: String(result.revision) };
    if (result.continue) listMeta['continue'] = result.continue;
    if (result.remainingItemCount !== undefined) listMeta['remainingItemCount'] = result.remainingItemCount;
    return listMeta;
  };
  const objects = ctx.registry.collection(ctx.def, ctx.path.namespace);
  const asStored = format.type === 'json' && !format.table;
  // The list goes out a page at a time as the client reads it, whatever its size or limit.
  const stream = asStored && !filter ? await listOrExplain(async () => objects.listStream(options), token !== undefined) : undefined;
  if (stream) {
    const head = JSON.stringify({ kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: meta(stream) });
    await writeListStream(ctx.res, head, stream);
    return;
  }
  // Stored JSON joined as is: parsing and re-serialising 10,000 pods would dominate the list.
  const raw = asStored ? await listOrExplain(() => objects.listRaw(options), token !== undefined) : undefined;
  if (raw) {
    const head = JSON.stringify({ kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: meta(raw) });
    await writeRawList(ctx.res, head, raw.items);
    return;
  }
  const result = await listOrExplain(() => objects.list(options), token !== undefined);
  if (format.table) {
    writeJson(ctx.res, 200, toTable(ctx.def, result.items, meta(result), include));
    return;
  }
  writeJson(ctx.res, 200, { kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: meta(result), items: result.items }, format);
}

/** Maps the store's list errors to what Kubernetes answers: 410 for expired, 400 for bad tokens. */
async function listOrExplain<T>(list: () => Promise<T>, continued: boolean): Promise<T> {
  try {
    return await list();
  } catch (error) {
    if (error instanceof RevisionExpiredError) {
      throw expired(
        continued
          ? 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'
          : 'The resourceVersion for the provided list is too old.',
      );
    }
    if (error instanceof InvalidContinueTokenError) throw badRequest(error.message);
    throw error;
  }
}

async function writeListStream(res: ServerResponse, head: string, stream: ListStream): Promise<void> {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write(`${head.slice(0, -1)},"items":[`);
  let separator = '';
  const nextPage = () => {
    const page = stream.next();
    if (page === undefined) return undefined;
    const chunk = separator + page;
    separator = ',';
    return chunk;
  };
  try {
    if (await writeAsRead(res, nextPage)) res.end(']}');
  } catch (error) {
    // The history this reader's revision needs was compacted (it read too slowly for the write
    // rate): the status line has gone out, so cutting the response is the only way to say so.
    if (!(error instanceof RevisionExpiredError)) throw error;
    res.destroy();
  } finally {
    stream.close();
  }
}

/** Bytes per socket write: big enough for few writes, small enough to be freed as they drain. */
const WRITE_CHUNK_BYTES = 512 * 1024;
const COMMA = 0x2c;

/**
 * The stored items (a filtered list's) copied into a few large buffers (their exact length is
 * known, so no chunked framing), each made when the socket has taken the one before.
 */
async function writeRawList(res: ServerResponse, head: string, items: Uint8Array[]): Promise<void> {
  const open = Buffer.from(`${head.slice(0, -1)},"items":[`);
  const close = Buffer.from(']}');
  let itemBytes = Math.max(0, items.length - 1);
  for (const item of items) itemBytes += item.byteLength;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': open.length + itemBytes + close.length });
  res.write(open);
  let i = 0;
  const nextChunk = (): Buffer | undefined => {
    if (i >= items.length) return undefined;
    // Never more than what is left to write; an item larger than a chunk gets its own.
    const first = items[i]!;
    const chunk = Buffer.allocUnsafeSlow(Math.min(itemBytes, Math.max(WRITE_CHUNK_BYTES, first.byteLength + (i > 0 ? 1 : 0))));
    let used = 0;
    for (; i < items.length; i++) {
      const item = items[i]!;
      const needed = item.byteLength + (i > 0 ? 1 : 0);
      if (used > 0 && used + needed > chunk.length) break;
      if (i > 0) chunk[used++] = COMMA;
      chunk.set(item, used);
      used += item.byteLength;
    }
    itemBytes -= used;
    return chunk.subarray(0, used);
  };
  if (await writeAsRead(res, nextChunk)) res.end(close);
}

// GET of one object and of collections (list), as JSON, YAML or Table.
import { apiVersionOf } from '../../api/resource.js';
import type { ServerResponse } from 'node:http';
import { InvalidContinueTokenError, RevisionExpiredError } from '../../storage/errors.js';
import { badRequest, expired } from '../errors.js';
import { negotiate, writeJson } from '../http-io.js';
import { buildFilter } from '../registry/filters.js';
import { prefixFor } from '../registry/keys.js';
import { parseIncludeObject, toTable } from '../table.js';
import { parseNonNegativeInt, type ResourceRequest } from './context.js';

export async function getObject(ctx: ResourceRequest): Promise<void> {
  const format = negotiate(ctx.req.headers.accept, true);
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
  const options: Parameters<typeof ctx.registry.store.list>[0] = { prefix: prefixFor(ctx.def, ctx.path.namespace) };
  if (filter) options.filter = filter;
  if (limit) options.limit = limit;
  if (token) options.continue = token;
  if (ctx.path.namespace) await ctx.registry.requireNamespace(ctx.def, ctx.path.namespace, false);
  const meta = (result: { revision: number; continue?: string; remainingItemCount?: number }) => {
    const listMeta: Record<string, unknown> = { resourceVersion: String(result.revision) };
    if (result.continue) listMeta['continue'] = result.continue;
    if (result.remainingItemCount !== undefined) listMeta['remainingItemCount'] = result.remainingItemCount;
    return listMeta;
  };
  const store = ctx.registry.store;
  if (format.type === 'json' && !format.table && store.listRaw) {
    // Stored JSON joined as is: parsing and re-serialising 10,000 pods would dominate the list.
    const raw = await listOrExplain(() => store.listRaw!(options));
    const head = JSON.stringify({ kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: meta(raw) });
    writeRawList(ctx.res, head, raw.items);
    return;
  }
  const result = await listOrExplain(() => store.list(options));
  if (format.table) {
    writeJson(ctx.res, 200, toTable(ctx.def, result.items, meta(result), include));
    return;
  }
  writeJson(ctx.res, 200, { kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: meta(result), items: result.items }, format);
}

/** Maps the store's list errors to what Kubernetes answers: 410 for expired, 400 for bad tokens. */
async function listOrExplain<T>(list: () => Promise<T>): Promise<T> {
  try {
    return await list();
  } catch (error) {
    if (error instanceof RevisionExpiredError) {
      throw expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
    }
    if (error instanceof InvalidContinueTokenError) throw badRequest(error.message);
    throw error;
  }
}

/** Items written in slices: a 10,000-pod list never becomes one giant string in memory. */
const ITEMS_PER_WRITE = 256;

function writeRawList(res: ServerResponse, head: string, items: string[]): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write(`${head.slice(0, -1)},"items":[`);
  for (let i = 0; i < items.length; i += ITEMS_PER_WRITE) {
    res.write((i === 0 ? '' : ',') + items.slice(i, i + ITEMS_PER_WRITE).join(','));
  }
  res.end(']}');
}

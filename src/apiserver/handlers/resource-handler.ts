// Dispatches a resource request (method × collection/object/subresource) to its handler.
import type { ResourceDefinition } from '../../api/resource.js';
import { methodNotAllowed, pathNotFound } from '../errors.js';
import type { ResourcePath } from '../routes.js';
import type { RequestContext, ResourceRequest } from './context.js';
import { parseBoolean } from './context.js';
import { getObject, listObjects } from './read.js';
import { serveScale } from './scale.js';
import { serveWatch } from './watch.js';
import { answerReview, createObject, deleteCollection, deleteObject, patchObject, updateObject } from './write.js';

/** Subresources served by other components (logs, exec, binding, ...), keyed `group/plural/sub`. */
export type SubresourceHandlers = ReadonlyMap<string, (ctx: ResourceRequest) => Promise<void>>;

export async function serveResource(
  base: RequestContext,
  path: ResourcePath,
  def: ResourceDefinition | undefined,
  extraSubresources: SubresourceHandlers,
): Promise<void> {
  const url = base.req.url ?? '';
  if (!def || (!def.namespaced && path.namespace !== undefined)) throw pathNotFound(url);
  // A namespaced object is named only under its namespace: /api/v1/secrets/{name} is no path.
  if (def.namespaced && path.namespace === undefined && path.name !== undefined) throw pathNotFound(url);
  // The same object as `base`, so the verb the handlers set is what the metrics record.
  const ctx: ResourceRequest = Object.assign(base, { def, path });
  const method = base.req.method ?? 'GET';
  const watching = path.legacyWatch || parseBoolean(base.query, 'watch');
  if (def.answer) {
    // Reviews are created and answered, nothing else.
    if (method !== 'POST' || path.name !== undefined || path.subresource || watching) throw methodNotAllowed(method);
    return run(ctx, 'create', answerReview);
  }
  if (path.subresource) return serveSubresource(ctx, method, extraSubresources);
  if (watching) {
    if (method !== 'GET') throw methodNotAllowed(method);
    ctx.verb = 'watch';
    return serveWatch(ctx);
  }
  if (path.name === undefined) {
    if (method === 'GET') return run(ctx, 'list', listObjects);
    if (method === 'POST') return run(ctx, 'create', createObject);
    if (method === 'DELETE') return run(ctx, 'deletecollection', deleteCollection);
    throw methodNotAllowed(method);
  }
  if (method === 'GET') return run(ctx, 'get', getObject);
  if (method === 'PUT') return run(ctx, 'update', (c) => updateObject(c));
  if (method === 'PATCH') return run(ctx, 'patch', (c) => patchObject(c));
  if (method === 'DELETE') return run(ctx, 'delete', deleteObject);
  throw methodNotAllowed(method);
}

const VERBS: Record<string, string> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

function run(ctx: ResourceRequest, verb: string, handler: (ctx: ResourceRequest) => Promise<void>): Promise<void> {
  ctx.verb = verb;
  return handler(ctx);
}

function serveSubresource(ctx: ResourceRequest, method: string, extra: SubresourceHandlers): Promise<void> {
  const { def, path } = ctx;
  const sub = path.subresource!;
  if (path.name === undefined) throw pathNotFound(ctx.req.url ?? '');
  const external = extra.get(`${def.group}/${def.plural}/${sub}`);
  if (external) return run(ctx, VERBS[method] ?? method.toLowerCase(), external);
  if (sub === 'scale') return run(ctx, VERBS[method] ?? method.toLowerCase(), serveScale);
  // A CSR's approval is read and written like its status (the registry keeps the rest).
  const isStatus = (sub === 'status' && def.subresources.status) || (sub === 'approval' && def.subresources.approval);
  const isFinalize = sub === 'finalize' && def.kind === 'Namespace' && def.group === '';
  if (!isStatus && !isFinalize) throw pathNotFound(ctx.req.url ?? '');
  if (method === 'GET' && isStatus) return run(ctx, 'get', getObject);
  if (method === 'PUT') return run(ctx, 'update', (c) => updateObject(c, sub));
  if (method === 'PATCH' && isStatus) return run(ctx, 'patch', (c) => patchObject(c, sub));
  throw methodNotAllowed(method);
}

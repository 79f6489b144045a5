// A kind served in a second version by conversion (ResourceDefinition.servedBy): the object is
// stored once, in the stored definition's version, and every read and write of this version
// goes through the conversion both ways. Get, list, create, update, JSON/merge/strategic patch
// (kubectl apply of a manifest in this version) and delete; no watch or server-side apply in the
// converted version (clients use the stored one for those: kubectl prefers it).
import type { KubeObject } from '../../api/meta.js';
import { apiVersionOf, type ServedBy } from '../../api/resource.js';
import { badRequest, methodNotAllowed, unsupportedMediaType } from '../errors.js';
import { applyPatch, PATCH_CONTENT_TYPES } from '../patch/index.js';
import { decodeBody } from '../decode/index.js';
import { readBody, writeJson } from '../http-io.js';
import { asObjectOfKind, parseFieldValidation } from '../registry/admission.js';
import { buildFilter } from '../registry/filters.js';
import { prefixFor } from '../registry/keys.js';
import type { WriteOptions } from '../registry/object-registry.js';
import { fieldManagerOf, parseBoolean, parseDryRun, type ResourceRequest } from './context.js';
import { deleteObject } from './write.js';

function options(ctx: ResourceRequest): WriteOptions {
  return {
    dryRun: parseDryRun(ctx.query), fieldManager: fieldManagerOf(ctx), fieldValidation: parseFieldValidation(ctx.query.get('fieldValidation')),
    auditAnnotations: (ctx.auditAnnotations ??= {}), user: ctx.user,
  };
}

async function bodyOf(ctx: ResourceRequest): Promise<KubeObject> {
  const { value } = await decodeBody(await readBody(ctx.req), ctx.req.headers['content-type']);
  ctx.audit?.requestObject(value);
  return asObjectOfKind(value, ctx.def, true);
}

export async function serveConverted(ctx: ResourceRequest, servedBy: ServedBy): Promise<void> {
  const { def, path } = ctx;
  const stored = servedBy.stored;
  const method = ctx.req.method ?? 'GET';
  if (path.subresource || path.legacyWatch || parseBoolean(ctx.query, 'watch')) {
    throw methodNotAllowed(`${method} on ${apiVersionOf(def)} ${def.plural}${path.subresource ? `/${path.subresource}` : ''} (use ${apiVersionOf(stored)})`);
  }
  if (path.name === undefined && method === 'GET') {
    ctx.verb = 'list';
    const filter = buildFilter(stored, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
    const list = await ctx.registry.store.list({ prefix: prefixFor(stored, path.namespace), ...(filter ? { filter } : {}) });
    return writeJson(ctx.res, 200, {
      kind: def.listKind, apiVersion: apiVersionOf(def), metadata: { resourceVersion: String(list.revision) },
      items: list.items.map((item) => servedBy.fromStored(item)),
    });
  }
  if (path.name === undefined && method === 'POST') {
    ctx.verb = 'create';
    const body = await bodyOf(ctx);
    const result = await ctx.registry.create(stored, path.namespace, servedBy.toStored(body), options(ctx));
    return writeJson(ctx.res, result.created ? 201 : 200, servedBy.fromStored(result.object));
  }
  if (path.name !== undefined && method === 'GET') {
    ctx.verb = 'get';
    return writeJson(ctx.res, 200, servedBy.fromStored(await ctx.registry.get(stored, path.namespace, path.name)));
  }
  if (path.name !== undefined && method === 'PUT') {
    ctx.verb = 'update';
    const body = await bodyOf(ctx);
    if (body.metadata.name !== undefined && body.metadata.name !== path.name) throw badRequest('the name of the object does not match the name on the URL');
    const old = await ctx.registry.get(stored, path.namespace, path.name);
    const result = await ctx.registry.update(stored, path.namespace, path.name, servedBy.toStored(body, old), options(ctx));
    return writeJson(ctx.res, result.created ? 201 : 200, servedBy.fromStored(result.object));
  }
  if (path.name !== undefined && method === 'PATCH') {
    ctx.verb = 'patch';
    const contentType = ctx.req.headers['content-type'] ?? '';
    if (!PATCH_CONTENT_TYPES.includes((contentType.split(';')[0] ?? '').trim())) throw unsupportedMediaType(contentType, [...PATCH_CONTENT_TYPES]);
    const old = await ctx.registry.get(stored, path.namespace, path.name);
    const patched = applyPatch(contentType, servedBy.fromStored(old), await readBody(ctx.req), def.schema as Parameters<typeof applyPatch>[3]);
    const object = asObjectOfKind(patched, def, true);
    // The object read is the one patched: a write in between is a conflict, as for any update.
    object.metadata.resourceVersion = old.metadata.resourceVersion;
    const result = await ctx.registry.update(stored, path.namespace, path.name, servedBy.toStored(object, old), options(ctx));
    return writeJson(ctx.res, 200, servedBy.fromStored(result.object));
  }
  if (path.name !== undefined && method === 'DELETE') {
    ctx.verb = 'delete';
    return deleteObject(Object.assign(ctx, { def: stored }));
  }
  throw methodNotAllowed(method);
}

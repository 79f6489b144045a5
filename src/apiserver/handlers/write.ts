// POST, PUT, PATCH, DELETE and DELETE-collection: decode the body, hand it to the registry,
// answer with the stored object (or Status) and any warnings.
import type { ServerResponse } from 'node:http';
import { isObject, type KubeObject } from '../../api/meta.js';
import { apiVersionOf } from '../../api/resource.js';
import { badRequest, invalid, methodNotAllowed, tooLargeObject, unsupportedMediaType } from '../errors.js';
import { storedJson } from '../../storage/stored-json.js';
import { decodeBody } from '../decode/index.js';
import { storedSizeLowerBound } from '../decode/stored-size.js';
import { MAX_VALUE_BYTES } from '../../storage/errors.js';
import { mediaType, negotiate, readBody, writeJson, writeJsonText } from '../http-io.js';
import { asObjectOfKind, checkFields, duplicateFieldWarnings, parseFieldValidation } from '../registry/admission.js';
import type { DeleteOptions } from '../registry/deletion.js';
import { buildFilter } from '../registry/filters.js';
import { propagationPolicyOf } from '../registry/propagation.js';
import type { PatchType, WriteOptions, WriteResult } from '../registry/object-registry.js';
import { fieldManagerOf, parseBoolean, parseDryRun, parseNonNegativeInt, type ResourceRequest } from './context.js';
import { podStartStages, preciseNow } from '../../metrics/pod-start-stages.js';
import type { EventLoopSlice } from '../event-loop-slice.js';

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

function writeOptions(ctx: ResourceRequest, subresource?: string, applyPatch = false): WriteOptions {
  const options: WriteOptions = {
    dryRun: parseDryRun(ctx.query),
    fieldManager: fieldManagerOf(ctx, applyPatch),
    fieldValidation: parseFieldValidation(ctx.query.get('fieldValidation')),
    auditAnnotations: (ctx.auditAnnotations ??= {}),
    user: ctx.user,
  };
  if (subresource) options.subresource = subresource;
  return options;
}

/** Kubernetes sends warnings as `Warning: 299 - "text"` headers; kubectl prints them. */
export function respond(res: ServerResponse, ctx: ResourceRequest, result: WriteResult, okCode = 200, decodeWarnings: string[] = []): void {
  const warnings = [...decodeWarnings, ...result.warnings];
  if (warnings.length > 0) {
    const earlier = res.getHeader('Warning');
    res.setHeader('Warning', [...(earlier === undefined ? [] : [earlier].flat().map(String)), ...warnings.map((w) => `299 - ${JSON.stringify(w)}`)]);
  }
  const format = negotiate(ctx.req.headers.accept, false);
  const code = result.created ? 201 : okCode;
  // The registry hands back the store's own result untouched, so the text the store wrote is it.
  const json = format.type === 'json' ? storedJson(result.object) : undefined;
  if (json !== undefined) writeJsonText(res, code, json);
  else writeJson(res, code, result.object, format);
}

/**
 * Reads and decodes a write's body: the value, and the warnings its duplicate fields earn
 * (Strict: a 400 instead). A whole object (create, update, apply) that is larger than the store
 * keeps even written compactly is refused here, before the work that would end in the store's
 * 413 anyway: for a 2.7 MB ConfigMap of 150,000 keys that work held the event loop for 1.5 s.
 */
/**
 * What the body of a write is, refused at once when the object it stands for cannot fit the
 * store: `wholeObject` for create, update and apply; `recordsEveryField` when the writer will own
 * every field it sends (create and apply, not a subresource).
 */
async function readWrite(
  ctx: ResourceRequest,
  contentType: string | undefined,
  options: WriteOptions,
  wholeObject: boolean,
  recordsEveryField = false,
): Promise<{ body: unknown; warnings: string[]; slice: EventLoopSlice }> {
  const raw = await readBody(ctx.req);
  const { value, duplicates, slice } = await decodeBody(raw, contentType);
  ctx.audit?.requestObject(value);
  if (wholeObject && raw.length > MAX_VALUE_BYTES) {
    const bytes = Buffer.byteLength(JSON.stringify(value));
    if (bytes > MAX_VALUE_BYTES) throw tooLargeObject(bytes);
  }
  // Only bodies within a few times the limit can be near it: a small write skips the walk.
  if (wholeObject && raw.length > MAX_VALUE_BYTES / 4 && isObject(value)) {
    await new Promise<void>((resolve) => setImmediate(resolve)); // the walk is a stage of its own
    const bytes = storedSizeLowerBound(value, recordsEveryField && !!options.fieldManager && !options.subresource);
    if (bytes > MAX_VALUE_BYTES) throw tooLargeObject(bytes);
  }
  return { body: value, warnings: duplicateFieldWarnings(duplicates, options.fieldValidation), slice };
}

export async function createObject(ctx: ResourceRequest): Promise<void> {
  const received = preciseNow();
  const options = writeOptions(ctx);
  const { body, warnings, slice } = await readWrite(ctx, ctx.req.headers['content-type'], options, true, true);
  const result = await ctx.registry.create(ctx.def, ctx.path.namespace, body, options, slice);
  if (result.created && !options.dryRun && isPods(ctx)) {
    podStartStages.mark(result.object, 'apiReceived', received);
    podStartStages.mark(result.object, 'apiWritten');
  }
  respond(ctx.res, ctx, result, 200, warnings);
}

const isPods = (ctx: ResourceRequest) => ctx.def.group === '' && ctx.def.plural === 'pods';

/** The first status of a starting pod that says Running, as stored: the end of its start (pod-start-stages.ts). */
function noteRunning(ctx: ResourceRequest, subresource: string | undefined, options: WriteOptions, result: WriteResult): void {
  if (subresource !== 'status' || options.dryRun || !isPods(ctx)) return;
  if ((result.object as { status?: { phase?: string } }).status?.phase === 'Running') podStartStages.markKnown(result.object, 'runningWritten');
}

/** POST of a review kind: the object comes back with the server's answer in status, unstored. */
export async function answerReview(ctx: ResourceRequest): Promise<void> {
  const { def } = ctx;
  const decoded = (await decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'])).value;
  ctx.audit?.requestObject(decoded);
  const review = asObjectOfKind(decoded, def, true);
  // A review has no name to validate (it is never stored): its fields are all there is.
  const { errors } = checkFields(review, def, parseFieldValidation(ctx.query.get('fieldValidation')));
  if (errors.length > 0) throw invalid(def.kind, '', def.group, errors);
  const { authorizer, rules, tokens } = ctx.access;
  // Awaited: a TokenReview reads the store (does the token's account still exist?).
  review['status'] = await def.answer!(review, {
    user: ctx.user,
    ...(authorizer ? { authorizer } : {}),
    ...(rules ? { rules } : {}),
    ...(tokens ? { tokens } : {}),
  });
  writeJson(ctx.res, 201, review, negotiate(ctx.req.headers.accept, false));
}

export async function updateObject(ctx: ResourceRequest, subresource?: string): Promise<void> {
  const options = writeOptions(ctx, subresource);
  const { body, warnings, slice } = await readWrite(ctx, ctx.req.headers['content-type'], options, true);
  const result = await ctx.registry.update(ctx.def, ctx.path.namespace, ctx.path.name!, body, options, slice);
  noteRunning(ctx, subresource, options, result);
  respond(ctx.res, ctx, result, 200, warnings);
}

export async function patchObject(ctx: ResourceRequest, subresource?: string): Promise<void> {
  const type = PATCH_TYPES[mediaType(ctx.req.headers['content-type'])];
  if (!type || (type === 'strategic' && ctx.def.strategicMergePatch === false)) {
    const accepted = Object.keys(PATCH_TYPES).filter((name) => PATCH_TYPES[name] !== 'strategic' || ctx.def.strategicMergePatch !== false);
    throw unsupportedMediaType(mediaType(ctx.req.headers['content-type']), accepted);
  }
  const force = parseBoolean(ctx.query, 'force');
  if (force && type !== 'apply') throw badRequest('force: Forbidden: may not be specified for non-apply patch');
  const options = { ...writeOptions(ctx, subresource, type === 'apply'), force };
  // Apply configurations are YAML (JSON is YAML too); the other patch types are JSON.
  const { body, warnings, slice } = await readWrite(
    ctx,
    type === 'apply' ? 'application/yaml' : 'application/json',
    options,
    type === 'apply',
    type === 'apply',
  );
  const result = await ctx.registry.patch(ctx.def, ctx.path.namespace, ctx.path.name!, type, body, options, slice);
  noteRunning(ctx, subresource, options, result);
  respond(ctx.res, ctx, result, 200, warnings);
}

/** DeleteOptions come from the body (kubectl) or the query (curl); the body wins. */
async function deleteOptions(ctx: ResourceRequest): Promise<DeleteOptions> {
  const raw = await readBody(ctx.req);
  const body = raw.length > 0 && raw.toString().trim() !== '' ? (await decodeBody(raw, ctx.req.headers['content-type'])).value : {};
  if (raw.length > 0) ctx.audit?.requestObject(body);
  if (!isObject(body)) throw badRequest('DeleteOptions must be an object');
  const options: DeleteOptions = { dryRun: parseDryRun(ctx.query) || (Array.isArray(body['dryRun']) && body['dryRun'].includes('All')) };
  const grace = body['gracePeriodSeconds'] ?? parseNonNegativeInt(ctx.query, 'gracePeriodSeconds');
  if (grace !== undefined) {
    if (typeof grace !== 'number' || !Number.isSafeInteger(grace)) throw badRequest('gracePeriodSeconds must be an integer');
    options.gracePeriodSeconds = Math.max(0, grace);
  }
  const policy = propagationPolicyOf(body, ctx.query);
  if (policy !== undefined) options.propagationPolicy = policy;
  if (isObject(body['preconditions'])) options.preconditions = body['preconditions'] as DeleteOptions['preconditions'] & object;
  return options;
}

export async function deleteObject(ctx: ResourceRequest): Promise<void> {
  const options = await deleteOptions(ctx);
  const result = await ctx.registry.delete(ctx.def, ctx.path.namespace, ctx.path.name!, options);
  writeJson(ctx.res, result.finished ? 200 : 202, result.object, negotiate(ctx.req.headers.accept, false));
}

export async function deleteCollection(ctx: ResourceRequest): Promise<void> {
  if (!ctx.def.verbs.includes('deletecollection')) throw methodNotAllowed('DELETE');
  const options = await deleteOptions(ctx);
  const filter = buildFilter(ctx.def, ctx.query.get('labelSelector'), ctx.query.get('fieldSelector'));
  if (ctx.path.namespace) await ctx.registry.requireNamespace(ctx.def, ctx.path.namespace, false);
  const { items, revision } = await ctx.registry.collection(ctx.def, ctx.path.namespace).list(filter ? { filter } : {});
  const deleted: KubeObject[] = [];
  for (const item of items) {
    try {
      deleted.push((await ctx.registry.delete(ctx.def, item.metadata.namespace, item.metadata.name!, options)).object);
    } catch (error) {
      // Deleted by someone else meanwhile: the collection delete still succeeds.
      if ((error as { code?: number }).code !== 404) throw error;
    }
  }
  const list = { kind: ctx.def.listKind, apiVersion: apiVersionOf(ctx.def), metadata: { resourceVersion: String(revision) }, items: deleted };
  writeJson(ctx.res, 200, list);
}

// The /scale subresource (autoscaling/v1 Scale) of deployments and replicasets: what
// `kubectl scale` reads and patches. Writes go to the parent's spec.replicas.
import { isObject, type KubeObject } from '../../api/meta.js';
import type { ScaleSubresource } from '../../api/resource.js';
import { labelSelectorToString } from '../../api/selectors/index.js';
import { applyPatch } from '../patch/index.js';
import { badRequest, invalid, methodNotAllowed, pathNotFound, staleResourceVersion, unsupportedMediaType } from '../errors.js';
import { decodeBody } from '../decode/index.js';
import { mediaType, readBody, writeJson } from '../http-io.js';
import { parseFieldValidation } from '../registry/admission.js';
import { ref } from '../registry/object-registry.js';
import { fieldManagerOf, parseDryRun, type ResourceRequest } from './context.js';

function readPath(object: KubeObject, path: string): unknown {
  let value: unknown = object;
  for (const part of path.split('.').filter(Boolean)) value = isObject(value) ? value[part] : undefined;
  return value;
}

function scaleOf(parent: KubeObject, spec: ScaleSubresource): Record<string, unknown> {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = parent.metadata;
  const selector = spec.labelSelectorPath ? readPath(parent, spec.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: readPath(parent, spec.specReplicasPath) ?? 0 },
    status: {
      replicas: readPath(parent, spec.statusReplicasPath) ?? 0,
      selector:
        typeof selector === 'string' ? selector : isObject(selector) ? labelSelectorToString(spec.selectorIsMap ? { matchLabels: selector } : selector) : '',
    },
  };
}

export async function serveScale(ctx: ResourceRequest): Promise<void> {
  const spec = ctx.def.subresources.scale;
  if (!spec) throw pathNotFound(ctx.req.url ?? '');
  const method = ctx.req.method;
  const parent = await ctx.registry.get(ctx.def, ctx.path.namespace, ctx.path.name!);
  if (method === 'GET') return writeJson(ctx.res, 200, scaleOf(parent, spec));
  if (method !== 'PUT' && method !== 'PATCH') throw methodNotAllowed(method ?? '');
  const raw = await readBody(ctx.req);
  const current = scaleOf(parent, spec);
  let wanted: unknown;
  if (method === 'PUT') {
    wanted = (await decodeBody(raw, ctx.req.headers['content-type'])).value;
    ctx.audit?.requestObject(wanted);
  } else {
    const type = mediaType(ctx.req.headers['content-type']);
    if (!['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'].includes(type)) {
      throw unsupportedMediaType(type, ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
    }
    const body = (await decodeBody(raw, 'application/json')).value;
    ctx.audit?.requestObject(body);
    wanted = applyPatch(type, current, body, undefined);
  }
  const replicas = replicasOf(wanted, parent);
  const requested = isObject(wanted) && isObject(wanted['metadata']) ? wanted['metadata']['resourceVersion'] : undefined;
  if (typeof requested === 'string' && requested !== '' && requested !== parent.metadata.resourceVersion) {
    throw staleResourceVersion(ref(ctx.def, parent.metadata.name));
  }
  const replicasField = spec.specReplicasPath.split('.').filter(Boolean);
  const patch: Record<string, unknown> = {};
  let cursor = patch;
  replicasField.forEach((part, i) => {
    cursor[part] = i === replicasField.length - 1 ? replicas : {};
    cursor = cursor[part] as Record<string, unknown>;
  });
  const result = await ctx.registry.patch(ctx.def, ctx.path.namespace, ctx.path.name!, 'merge', patch, {
    dryRun: parseDryRun(ctx.query),
    fieldManager: fieldManagerOf(ctx),
    fieldValidation: parseFieldValidation(ctx.query.get('fieldValidation')),
    subresource: 'scale',
    force: false,
    user: ctx.user,
  });
  writeJson(ctx.res, 200, scaleOf(result.object, spec));
}

function replicasOf(wanted: unknown, parent: KubeObject): number {
  if (!isObject(wanted) || !isObject(wanted['spec'])) throw badRequest('the body must be a Scale object with spec.replicas');
  const replicas = wanted['spec']['replicas'];
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid('Scale', parent.metadata.name ?? '', 'autoscaling', [
      { field: 'spec.replicas', type: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` },
    ]);
  }
  return replicas;
}

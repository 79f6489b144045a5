// pods/binding: how the scheduler places a pod (pods/eviction, in pod-eviction.ts, shares its
// body decoding). Binding is a system write: it sets spec.nodeName, which an ordinary update may
// not change, and marks the pod scheduled.
import { isObject, type KubeObject } from '../../api/meta.js';
import { validateBinding } from '../../api/validation/index.js';
import { RevisionConflictError } from '../../storage/errors.js';
import { MAX_WRITE_RETRIES } from '../registry/write-retries.js';
import { badRequest, conflict, invalid, notFound } from '../errors.js';
import { decodeBody } from '../decode/index.js';
import { readBody, writeJson } from '../http-io.js';
import { keyFor } from '../registry/keys.js';
import { timestamp } from '../registry/metadata.js';
import { ref } from '../registry/object-registry.js';
import { parseDryRun, type ResourceRequest } from './context.js';

export function success(code: number): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code };
}

export async function decodeNamedBody(ctx: ResourceRequest, kind: string): Promise<Record<string, unknown>> {
  const { value: body } = await decodeBody(await readBody(ctx.req), ctx.req.headers['content-type']);
  ctx.audit?.requestObject(body);
  if (!isObject(body)) throw badRequest(`the body must be a ${kind} object`);
  const meta = isObject(body['metadata']) ? body['metadata'] : {};
  if (meta['name'] !== undefined && meta['name'] !== ctx.path.name) {
    throw badRequest(`the name of the ${kind} (${String(meta['name'])}) does not match the name on the URL (${ctx.path.name ?? ''})`);
  }
  return body;
}

export async function bindPod(ctx: ResourceRequest): Promise<void> {
  if (ctx.req.method !== 'POST') throw badRequest('pods/binding only supports POST');
  const binding = await decodeNamedBody(ctx, 'Binding');
  const errors = validateBinding(binding as KubeObject);
  if (errors.length > 0) throw invalid('Binding', ctx.path.name!, '', errors);
  const nodeName = (binding['target'] as { name: string }).name;
  const key = keyFor(ctx.def, ctx.path.namespace, ctx.path.name!);
  const store = ctx.registry.store;
  for (let attempt = 0; ; attempt++) {
    const pod = await store.get(key);
    if (!pod) throw notFound(ref(ctx.def, ctx.path.name));
    const updated = boundPod(ctx, pod, nodeName);
    if (parseDryRun(ctx.query)) break;
    try {
      await store.update(key, updated, { expectedRevision: Number(pod.metadata.resourceVersion) });
      break;
    } catch (error) {
      if (!(error instanceof RevisionConflictError) || attempt >= MAX_WRITE_RETRIES) throw error;
    }
  }
  writeJson(ctx.res, 201, success(201));
}

function boundPod(ctx: ResourceRequest, pod: KubeObject, nodeName: string): KubeObject {
  const spec = isObject(pod['spec']) ? pod['spec'] : {};
  const name = pod.metadata.name;
  if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
    throw conflict(ref(ctx.def, name), `pod ${name} is already assigned to node "${spec['nodeName']}"`);
  }
  if (pod.metadata.deletionTimestamp) throw conflict(ref(ctx.def, name), `pod ${name} is being deleted, cannot be assigned to a host`);
  // store.get returns a fresh object: it is ours to change.
  const updated = pod;
  (updated['spec'] as Record<string, unknown>)['nodeName'] = nodeName;
  const status = isObject(updated['status']) ? updated['status'] : (updated['status'] = {});
  const conditions = (Array.isArray(status['conditions']) ? status['conditions'] : []).filter(
    (c: unknown) => !(isObject(c) && c['type'] === 'PodScheduled'),
  );
  conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp() });
  status['conditions'] = conditions;
  return updated;
}

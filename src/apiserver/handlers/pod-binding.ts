// pods/binding: how the scheduler places a pod (pods/eviction, in pod-eviction.ts, shares its
// body decoding). The registry does the binding (ObjectRegistry.bindPod, as Kubernetes keeps it
// in the pod registry); this adapts it to HTTP: POST only, 201 with a Status Success.
import { isObject, type KubeObject } from '../../api/meta.js';
import { badRequest } from '../errors.js';
import { decodeBody } from '../decode/index.js';
import { readBody, writeJson } from '../http-io.js';
import { parseDryRun, type ResourceRequest } from './context.js';
import { podStartStages } from '../../metrics/pod-start-stages.js';

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
  const body = await decodeNamedBody(ctx, 'Binding');
  const binding = { ...body, metadata: isObject(body['metadata']) ? body['metadata'] : {} } as unknown as KubeObject;
  const dryRun = parseDryRun(ctx.query);
  const bound = await ctx.registry.bindPod(ctx.def, ctx.path.namespace, ctx.path.name!, binding, {
    dryRun,
    // A binding is a system write: it records no field manager on the pod, as in Kubernetes.
    fieldManager: '',
    fieldValidation: 'Ignore',
    auditAnnotations: (ctx.auditAnnotations ??= {}),
    user: ctx.user,
  });
  if (!dryRun) podStartStages.mark(bound, 'bindWritten');
  writeJson(ctx.res, 201, success(201));
}

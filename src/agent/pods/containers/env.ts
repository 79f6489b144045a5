// A container's environment as the kubelet builds it: envFrom sources first, then env in
// order (each value may refer to variables defined before it with $(VAR)), values from the
// downward API, ConfigMaps and Secrets. A reference that cannot be resolved is a
// CreateContainerConfigError with the kubelet's message.
import { parseQuantity } from '../../../api/validation/quantity.js';
import { secretValues, type ConfigSource } from '../config-source.js';
import { expand } from './expand.js';
import type { Container, EnvVar, Pod } from '../../../api/core/index.js';

export class ContainerConfigError extends Error {
  readonly reason = 'CreateContainerConfigError';
}

export interface EnvContext {
  pod: Pod;
  podIP: string;
  hostIP: string;
  sources: ConfigSource;
  /** Node allocatable, for resourceFieldRef when the container sets no limit. */
  allocatable: Readonly<Record<string, string>>;
}

// Kubernetes' C_IDENTIFIER-ish rule for keys imported through envFrom.
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

function fieldValue(ctx: EnvContext, fieldPath: string): string {
  const { pod } = ctx;
  const meta = pod.metadata;
  const indexed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (indexed) return (indexed[1] === 'labels' ? meta.labels : meta.annotations)?.[indexed[2]!] ?? '';
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'metadata.labels':
      return formatMap(meta.labels);
    case 'metadata.annotations':
      return formatMap(meta.annotations);
    case 'spec.nodeName':
      return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec.serviceAccountName ?? '';
    case 'status.podIP':
    case 'status.podIPs':
      return ctx.podIP;
    case 'status.hostIP':
    case 'status.hostIPs':
      return ctx.hostIP;
    default:
      throw new ContainerConfigError(`unsupported fieldPath: ${fieldPath}`);
  }
}

export function formatMap(map: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}="${(map ?? {})[k]!.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join('\n');
}

function resourceValue(ctx: EnvContext, container: Container, ref: { containerName?: string; resource: string; divisor?: string | number }): string {
  const target = ref.containerName ? (ctx.pod.spec.containers.find((c) => c.name === ref.containerName) ?? container) : container;
  const [kind, name = ''] = ref.resource.split(/\.(.*)/s);
  const limits = target.resources?.limits ?? {};
  const requests = target.resources?.requests ?? {};
  const raw = kind === 'requests' ? (requests[name] ?? limits[name]) : (limits[name] ?? ctx.allocatable[name]);
  const value = parseQuantity(raw ?? 0) ?? 0;
  const divisor = parseQuantity(ref.divisor ?? 0) || 1;
  return String(Math.ceil(value / divisor - 1e-9));
}

async function keyRefValue(ctx: EnvContext, v: EnvVar): Promise<string | undefined> {
  const ns = ctx.pod.metadata.namespace ?? 'default';
  const from = v.valueFrom!;
  if (from.configMapKeyRef) {
    const ref = from.configMapKeyRef;
    const cm = await ctx.sources.configMap(ns, ref.name ?? '');
    if (!cm) return missing(ref.optional, `configmap "${ref.name ?? ''}" not found`);
    const value = cm.data?.[ref.key] ?? (cm.binaryData?.[ref.key] === undefined ? undefined : Buffer.from(cm.binaryData[ref.key]!, 'base64').toString());
    return value ?? missing(ref.optional, `couldn't find key ${ref.key} in ConfigMap ${ns}/${ref.name ?? ''}`);
  }
  if (from.secretKeyRef) {
    const ref = from.secretKeyRef;
    const secret = await ctx.sources.secret(ns, ref.name ?? '');
    if (!secret) return missing(ref.optional, `secret "${ref.name ?? ''}" not found`);
    return secretValues(secret)[ref.key] ?? missing(ref.optional, `couldn't find key ${ref.key} in Secret ${ns}/${ref.name ?? ''}`);
  }
  return undefined;
}

function missing(optional: boolean | undefined, message: string): undefined {
  if (optional) return undefined;
  throw new ContainerConfigError(message);
}

async function envFrom(ctx: EnvContext, container: Container, env: Record<string, string>): Promise<void> {
  const ns = ctx.pod.metadata.namespace ?? 'default';
  for (const source of container.envFrom ?? []) {
    let values: Record<string, string> | undefined;
    if (source.configMapRef) {
      const cm = await ctx.sources.configMap(ns, source.configMapRef.name ?? '');
      if (!cm) missing(source.configMapRef.optional, `configmap "${source.configMapRef.name ?? ''}" not found`);
      values = cm?.data;
    } else if (source.secretRef) {
      const secret = await ctx.sources.secret(ns, source.secretRef.name ?? '');
      if (!secret) missing(source.secretRef.optional, `secret "${source.secretRef.name ?? ''}" not found`);
      values = secret ? secretValues(secret) : undefined;
    }
    for (const [key, value] of Object.entries(values ?? {})) {
      const name = `${source.prefix ?? ''}${key}`;
      if (ENV_NAME.test(name)) env[name] = value;
    }
  }
}

/**
 * The container's variables in definition order; `extra` (device env) is added last. `base`
 * (the service variables) comes first: the container's own envFrom and env override it, and its
 * $(VAR) references see it, as the kubelet's expansion looks in the service map after the
 * container's variables.
 */
export async function buildEnv(
  ctx: EnvContext,
  container: Container,
  extra: Readonly<Record<string, string>> = {},
  base: Readonly<Record<string, string>> = {},
): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  await envFrom(ctx, container, env);
  const lookup = (name: string): string | undefined => (Object.hasOwn(env, name) ? env[name] : Object.hasOwn(base, name) ? base[name] : undefined);
  for (const v of container.env ?? []) {
    if (v.valueFrom === undefined) {
      env[v.name] = expand(v.value ?? '', lookup);
      continue;
    }
    const from = v.valueFrom;
    if (from.fieldRef) env[v.name] = fieldValue(ctx, from.fieldRef.fieldPath);
    else if (from.resourceFieldRef) env[v.name] = resourceValue(ctx, container, from.resourceFieldRef);
    else {
      const value = await keyRefValue(ctx, v);
      if (value !== undefined) env[v.name] = value;
    }
  }
  return { ...base, ...env, ...extra };
}

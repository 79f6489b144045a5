// ConfigMaps and Secrets for env and volumes, and the claims and volumes of persistentVolumeClaim
// volumes, read from the API on demand. The agent does not watch every Secret in the cluster (as
// the kubelet, it asks only for what its pods name); a short cache keeps one sync of a pod with
// many references to one read per object.
import type { KubeObject } from '../../api/meta.js';
import { isNotFound, resources, type ApiClient, type ResourceRef } from '../../client/index.js';
import type { ConfigMap, Secret } from './types.js';

const TTL_MS = 2000;

interface Cached {
  at: number;
  value: Promise<KubeObject | undefined>;
}

export class ConfigSource {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly api: ApiClient) {}

  configMap(namespace: string, name: string): Promise<ConfigMap | undefined> {
    return this.read(resources.configmaps, namespace, name) as Promise<ConfigMap | undefined>;
  }

  secret(namespace: string, name: string): Promise<Secret | undefined> {
    return this.read(resources.secrets, namespace, name) as Promise<Secret | undefined>;
  }

  persistentVolumeClaim(namespace: string, name: string): Promise<KubeObject | undefined> {
    return this.read(resources.persistentvolumeclaims, namespace, name);
  }

  persistentVolume(name: string): Promise<KubeObject | undefined> {
    return this.read(resources.persistentvolumes, undefined, name);
  }

  private read(ref: ResourceRef, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    const key = `${ref.plural}/${namespace ?? ''}/${name}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && now - hit.at < TTL_MS) return hit.value;
    const value = this.api
      .resource(ref, namespace)
      .get(name)
      .catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        this.cache.delete(key);
        throw error;
      });
    this.cache.set(key, { at: now, value });
    if (this.cache.size > 1000) this.prune(now);
    return value;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.cache) if (now - entry.at >= TTL_MS) this.cache.delete(key);
  }
}

/** A Secret's values as text (data is base64; stringData only appears on writes). */
export function secretValues(secret: Secret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) out[k] = Buffer.from(v, 'base64').toString('utf8');
  for (const [k, v] of Object.entries(secret.stringData ?? {})) out[k] = v;
  return out;
}

/** A Secret's values as bytes, for files (binary content must survive). */
export function secretBytes(secret: Secret): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) out[k] = Buffer.from(v, 'base64');
  for (const [k, v] of Object.entries(secret.stringData ?? {})) out[k] = Buffer.from(v, 'utf8');
  return out;
}

export function configMapBytes(cm: ConfigMap): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(cm.data ?? {})) out[k] = Buffer.from(v, 'utf8');
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) out[k] = Buffer.from(v, 'base64');
  return out;
}

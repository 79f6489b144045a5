// Training replicas that run on the host's network (the process runtime, hostNetwork pods)
// cannot use the names Kubeflow gives them: MASTER_ADDR, PET_MASTER_ADDR and TF_CONFIG carry
// the replicas' Service names (`<job>-<type>-<i>`, `<job>-<type>-<i>.<ns>.svc:<port>`), and a
// host process resolves names through the host's resolver, which knows no cluster DNS. So at
// container start the agent replaces each such name by the InternalIP of the node the named
// replica's pod is bound to: one GET of the pod and of its node, cached briefly. A replica
// whose pod is not bound yet makes the container wait (ContainerCreating) and try again: a
// gang is bound all together, and pods start as soon as they are bound.
import { isNotFound, resources, type ApiClient } from '../../client/index.js';
import type { Pod } from './pod-types.js';

const JOB_NAME_LABEL = 'training.kubeflow.org/job-name';
const ADDRESS_VARS = ['MASTER_ADDR', 'PET_MASTER_ADDR'];
const CACHE_MS = 2000;

/** A named replica has no node yet: the container waits. */
export class ReplicaNotBoundError extends Error {
  readonly reason = 'ContainerCreating';
}

interface Cached {
  at: number;
  ip: Promise<string | undefined>;
}

const caches = new WeakMap<ApiClient, Map<string, Cached>>();

function isHostNetwork(pod: Pod): boolean {
  return pod.spec.runtimeClassName === 'process' || pod.spec.hostNetwork === true;
}

async function lookUp(api: ApiClient, namespace: string, name: string, jobName: string): Promise<string | undefined> {
  let replica: Pod;
  try {
    replica = await api.resource<Pod>(resources.pods, namespace).get(name);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  // Only a replica of the same job is a name to resolve (never some other pod of that name).
  if (replica.metadata.labels?.[JOB_NAME_LABEL] !== jobName || !replica.spec.nodeName) return undefined;
  const node = await api.resource(resources.nodes).get(replica.spec.nodeName);
  const addresses = ((node['status'] as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses) ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address;
}

async function nodeAddressOf(api: ApiClient, namespace: string, name: string, jobName: string): Promise<string> {
  let cache = caches.get(api);
  if (!cache) caches.set(api, (cache = new Map()));
  const key = `${namespace}/${name}`;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > CACHE_MS) {
    for (const [k, e] of cache) if (Date.now() - e.at > CACHE_MS) cache.delete(k); // keep only fresh answers
    entry = { at: Date.now(), ip: lookUp(api, namespace, name, jobName) };
    cache.set(key, entry);
    entry.ip.catch(() => cache.delete(key));
  }
  const ip = await entry.ip;
  if (ip === undefined) {
    cache.delete(key); // not bound yet: ask again next time
    throw new ReplicaNotBoundError(`waiting for replica ${name} to be bound to a node (its address goes into the environment)`);
  }
  return ip;
}

/** `<job>-<type>-<i>` or `<job>-<type>-<i>.<ns>.svc[.<domain>]`: the pod name, when it is one of the job's replicas. */
function replicaOfHost(host: string, jobName: string): string | undefined {
  const name = host.split('.')[0] ?? '';
  return name.startsWith(`${jobName}-`) && /-\d+$/.test(name) ? name : undefined;
}

async function resolveTfConfig(api: ApiClient, pod: Pod, jobName: string, text: string): Promise<string> {
  let config: { cluster?: Record<string, string[] | Record<string, string>> };
  try {
    config = JSON.parse(text) as typeof config;
  } catch {
    return text; // not ours to fix
  }
  const resolve = async (address: string) => {
    const at = address.lastIndexOf(':');
    const host = at < 0 ? address : address.slice(0, at);
    const name = replicaOfHost(host, jobName);
    if (!name) return address;
    return `${await nodeAddressOf(api, pod.metadata.namespace ?? 'default', name, jobName)}${at < 0 ? '' : address.slice(at)}`;
  };
  for (const [type, members] of Object.entries(config.cluster ?? {})) {
    if (Array.isArray(members)) config.cluster![type] = await Promise.all(members.map(resolve));
    else for (const [i, address] of Object.entries(members)) members[i] = await resolve(address);
  }
  return JSON.stringify(config);
}

/** The env with the job's replica names replaced by node addresses; unchanged for every other pod. */
export async function resolveReplicaAddresses(api: ApiClient, pod: Pod, env: Record<string, string>): Promise<Record<string, string>> {
  const jobName = pod.metadata.labels?.[JOB_NAME_LABEL];
  if (!jobName || !isHostNetwork(pod)) return env;
  const out = { ...env };
  for (const name of ADDRESS_VARS) {
    const replica = out[name] === undefined ? undefined : replicaOfHost(out[name]!, jobName);
    if (replica) out[name] = await nodeAddressOf(api, pod.metadata.namespace ?? 'default', replica, jobName);
  }
  if (out['TF_CONFIG'] !== undefined) out['TF_CONFIG'] = await resolveTfConfig(api, pod, jobName, out['TF_CONFIG']);
  return out;
}

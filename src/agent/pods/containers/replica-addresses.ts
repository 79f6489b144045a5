// Training replicas find each other by the names Kubeflow gives them: MASTER_ADDR,
// PET_MASTER_ADDR and TF_CONFIG carry the replicas' Service names (`<job>-<type>-<i>`,
// `<job>-<type>-<i>.<ns>.svc:<port>`). A host process resolves through the host's resolver, which
// knows no cluster DNS; a pod on the pod network has the cluster DNS, but the replicas' headless
// Services publish a replica only once it is ready, and replicas meet before any is. So at
// container start the agent replaces each such name by an address that works: for replicas on the host's network
// (the process runtime, hostNetwork) the InternalIP of the node the named replica is bound to;
// for replicas on the pod network, the named replica's pod IP (its own sandbox's for itself).
// One GET of the pod (and of its node), cached briefly. A replica not bound yet, or without a
// pod IP yet, makes the container wait (ContainerCreating) and try again: a gang is bound all
// together, and every pod's sandbox (and so its IP) comes before its containers.
import { sharesNodeNetwork } from '../../../api/pod-network.js';
import { TRAINING_JOB_NAME_LABEL } from '../../../api/training-frameworks.js';
import { isNotFound, resources, type ApiClient } from '../../../client/index.js';
import type { Pod } from '../../../api/core/index.js';

const ADDRESS_VARS = ['MASTER_ADDR', 'PET_MASTER_ADDR'];
const CACHE_MS = 2000;

/** A named replica has no node (or pod IP) yet: the container waits. */
export class ReplicaNotBoundError extends Error {
  readonly reason = 'ContainerCreating';
}

interface Cached {
  at: number;
  ip: Promise<string | undefined>;
}

const caches = new WeakMap<ApiClient, Map<string, Cached>>();

async function lookUp(api: ApiClient, namespace: string, name: string, jobName: string, hostNetwork: boolean): Promise<string | undefined> {
  let replica: Pod;
  try {
    replica = await api.resource<Pod>(resources.pods, namespace).get(name);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  // Only a replica of the same job is a name to resolve (never some other pod of that name).
  if (replica.metadata.labels?.[TRAINING_JOB_NAME_LABEL] !== jobName || !replica.spec.nodeName) return undefined;
  if (!hostNetwork) return replica.status?.podIP || undefined;
  const node = await api.resource(resources.nodes).get(replica.spec.nodeName);
  const addresses = (node['status'] as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address;
}

/** Who asks: the pod whose environment is built, and its own pod IP (its sandbox's). */
interface Asker {
  pod: Pod;
  jobName: string;
  hostNetwork: boolean;
  ownIP: string | undefined;
}

async function addressOf(api: ApiClient, asker: Asker, name: string): Promise<string> {
  if (!asker.hostNetwork && name === asker.pod.metadata.name && asker.ownIP) return asker.ownIP;
  const namespace = asker.pod.metadata.namespace ?? 'default';
  let cache = caches.get(api);
  if (!cache) caches.set(api, (cache = new Map()));
  const key = `${asker.hostNetwork ? 'node' : 'pod'}:${namespace}/${name}`;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > CACHE_MS) {
    for (const [k, e] of cache) if (Date.now() - e.at > CACHE_MS) cache.delete(k); // keep only fresh answers
    entry = { at: Date.now(), ip: lookUp(api, namespace, name, asker.jobName, asker.hostNetwork) };
    cache.set(key, entry);
    entry.ip.catch(() => cache.delete(key));
  }
  const ip = await entry.ip;
  if (ip === undefined) {
    cache.delete(key); // not bound yet: ask again next time
    const what = asker.hostNetwork ? 'be bound to a node' : 'have a pod IP';
    throw new ReplicaNotBoundError(`waiting for replica ${name} to ${what} (its address goes into the environment)`);
  }
  return ip;
}

/** `<job>-<type>-<i>` or `<job>-<type>-<i>.<ns>.svc[.<domain>]`: the pod name, when it is one of the job's replicas. */
function replicaOfHost(host: string, jobName: string): string | undefined {
  const name = host.split('.')[0] ?? '';
  return name.startsWith(`${jobName}-`) && /-\d+$/.test(name) ? name : undefined;
}

async function resolveTfConfig(api: ApiClient, asker: Asker, text: string): Promise<string> {
  let config: { cluster?: Record<string, string[] | Record<string, string>> };
  try {
    config = JSON.parse(text) as typeof config;
  } catch {
    return text; // not ours to fix
  }
  const resolve = async (address: string) => {
    const at = address.lastIndexOf(':');
    const host = at < 0 ? address : address.slice(0, at);
    const name = replicaOfHost(host, asker.jobName);
    if (!name) return address;
    return `${await addressOf(api, asker, name)}${at < 0 ? '' : address.slice(at)}`;
  };
  for (const [type, members] of Object.entries(config.cluster ?? {})) {
    if (Array.isArray(members)) config.cluster![type] = await Promise.all(members.map(resolve));
    else for (const [i, address] of Object.entries(members)) members[i] = await resolve(address);
  }
  return JSON.stringify(config);
}

/**
 * The env with the job's replica names replaced by addresses that work from this pod; unchanged
 * for every pod that is not a training replica. `ownIP` is the pod's sandbox IP.
 */
export async function resolveReplicaAddresses(api: ApiClient, pod: Pod, env: Record<string, string>, ownIP?: string): Promise<Record<string, string>> {
  const jobName = pod.metadata.labels?.[TRAINING_JOB_NAME_LABEL];
  if (!jobName) return env;
  const asker: Asker = { pod, jobName, hostNetwork: sharesNodeNetwork(pod.spec), ownIP };
  const out = { ...env };
  for (const name of ADDRESS_VARS) {
    const replica = out[name] === undefined ? undefined : replicaOfHost(out[name]!, jobName);
    if (replica) out[name] = await addressOf(api, asker, replica);
  }
  if (out['TF_CONFIG'] !== undefined) out['TF_CONFIG'] = await resolveTfConfig(api, asker, out['TF_CONFIG']);
  return out;
}

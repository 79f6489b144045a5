// One round's view of the cluster: every kind a check reads, listed once through the API.
//
// Lists run one after another in a fixed order, dependents before their owners and pods before
// nodes: an owner or node that existed when its dependent was listed is still in the later list
// unless it really went away. Checks confirm what they find with live reads before reporting.
import type { KubeObject } from '../api/meta.js';
import { resources, type ApiClient, type ResourceRef } from '../client/index.js';
import { COLLECTED_RESOURCES } from '../controllers/garbage-collector/index.js';
import type { Snapshot } from './types.js';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

async function listAll(api: ApiClient, ref: ResourceRef, namespace?: string): Promise<KubeObject[]> {
  return (await api.resource(ref, namespace).listAll()).items;
}

export async function takeSnapshot(api: ApiClient, now = Date.now()): Promise<Snapshot> {
  // The garbage collector's kinds, in its order (pods first, their owners after).
  const lists = new Map<ResourceRef, KubeObject[]>();
  for (const ref of COLLECTED_RESOURCES) lists.set(ref, await listAll(api, ref));
  const podGroups = await listAll(api, resources.podgroups);
  const nodes = await listAll(api, resources.nodes);
  const leases = await listAll(api, resources.leases, NODE_LEASE_NAMESPACE);
  const byUid = new Map<string, KubeObject>();
  const dependents: KubeObject[] = [];
  for (const object of [...[...lists.values()].flat(), ...nodes]) {
    if (object.metadata.uid) byUid.set(object.metadata.uid, object);
    if (object.metadata.ownerReferences?.length) dependents.push(object);
  }
  return {
    now,
    pods: lists.get(resources.pods) ?? [],
    nodes,
    nodeLeases: new Map(leases.map((lease) => [lease.metadata.name ?? '', lease])),
    services: lists.get(resources.services) ?? [],
    endpoints: lists.get(resources.endpoints) ?? [],
    endpointSlices: lists.get(resources.endpointslices) ?? [],
    transactions: lists.get(resources.transactions) ?? [],
    podGroups,
    byUid,
    dependents,
  };
}

/** When the node's agent last reported (its Lease's renewTime; its creation when it never did). */
export function lastHeartbeat(snapshot: Snapshot, node: KubeObject): number {
  const lease = snapshot.nodeLeases.get(node.metadata.name ?? '');
  return renewTime(lease) ?? (Date.parse(node.metadata.creationTimestamp ?? '') || 0);
}

/** A Lease's renewTime (epoch ms), if it has one. */
export function renewTime(lease: KubeObject | undefined): number | undefined {
  const renew = Date.parse((lease?.['spec'] as { renewTime?: string } | undefined)?.renewTime ?? '');
  return Number.isFinite(renew) ? renew : undefined;
}

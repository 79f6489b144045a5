// The labels the agent adds to every sandbox and container it creates, on top of the runtime's
// identity labels, and the filters every list and event stream of the agent goes through.
// One Docker Engine may be shared by several agents of one cluster (tests, `drover up` with more
// than one node) and by several clusters (two `drover up` on one machine, with the same node
// name and pods of the same namespace/name): each agent adopts and cleans up only the objects
// of its own cluster and node.
//
// Objects without the cluster label (made by a Drover from before clusters had an identity, or
// by anyone else) are foreign to every cluster: no agent lists, adopts or removes them. An
// older cluster's containers on the engine are left running; remove them by hand.
import type { ListFilter } from './runtime/runtime.js';
import { POD_UID } from './runtime/labels.js';

export const CLUSTER_LABEL = 'drover.dev/cluster';
export const NODE_LABEL = 'drover.dev/node';

/** Whose runtime objects an agent may touch: its cluster's (see cluster-id.ts) on its node. */
export interface Owner {
  clusterId: string;
  nodeName: string;
}

export function ownerLabels(owner: Owner): Record<string, string> {
  return { [CLUSTER_LABEL]: owner.clusterId, [NODE_LABEL]: owner.nodeName };
}

/** Every object of this agent, stopped ones too. */
export function ownerFilter(owner: Owner): ListFilter {
  return { labels: ownerLabels(owner), all: true };
}

/** This agent's objects of one pod (by uid), narrowed further by `labels`. */
export function podFilter(owner: Owner, uid: string, labels: Record<string, string> = {}): ListFilter {
  return { labels: { ...labels, ...ownerLabels(owner), [POD_UID]: uid }, all: true };
}

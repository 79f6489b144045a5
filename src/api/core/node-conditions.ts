// A Node's Ready condition as the controllers read it: True (the agent reports in), False (it
// reports a problem), Unknown or missing (nobody reports: the node lifecycle controller's
// unreachable). One reading for the DaemonSet's eligibility, its node watch and the local-path
// provisioner's choice of node.
import type { ConditionStatus } from './pod.js';
import type { Node } from './node.js';

/** What these helpers read of a node: only its status. */
export type NodeWithStatus = Readonly<Pick<Node, 'status'>>;

/** The status of the node's Ready condition; undefined when it has none. */
export function nodeReadyStatus(node: NodeWithStatus): ConditionStatus | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

export function isNodeReady(node: NodeWithStatus): boolean {
  return nodeReadyStatus(node) === 'True';
}

// What the DaemonSet must create and delete so that every eligible node runs exactly one daemon
// pod (DaemonSetsController.manage / podsShouldBeOnNode). Pure: the controller carries it out.
import type { Eligibility } from './node-eligibility.js';
import { byAge, REVISION_HASH_LABEL } from './types.js';
import { isPodAvailable, isPodReady } from '../../api/core/pod-conditions.js';
import type { Node, Pod } from '../../api/core/index.js';

export type DeleteReason = 'failed' | 'excess' | 'ineligible' | 'node-gone' | 'update';

export interface PodDeletion {
  pod: Readonly<Pod>;
  reason: DeleteReason;
  /** The pod's node is gone: no agent will confirm a graceful deletion. */
  force?: boolean;
}

export interface ManagePlan {
  createOn: string[];
  deletions: PodDeletion[];
  /** Nodes whose failed daemon pod is being replaced. */
  failedOn: string[];
  /** Failed pods held back by their node's back-off: look again after this long. */
  retryAfterMs?: number;
}

export interface ManageInput {
  nodes: readonly Readonly<Node>[];
  /** Every pod of the DaemonSet, by the node it is bound or pinned to ('' for none). */
  podsByNode: ReadonlyMap<string, readonly Readonly<Pod>[]>;
  eligibility(node: Readonly<Node>): Eligibility;
  hash: string;
  surge: boolean;
  minReadySeconds: number;
  now: number;
  /** Undefined when a failed pod on this node may be replaced now; else ms to wait. */
  failedBackoff(nodeName: string): number | undefined;
}

export function planManage(input: ManageInput): ManagePlan {
  const plan: ManagePlan = { createOn: [], deletions: [], failedOn: [] };
  const known = new Set<string>();
  for (const node of input.nodes) {
    const name = node.metadata.name!;
    known.add(name);
    planNode(input, plan, name, input.eligibility(node), input.podsByNode.get(name) ?? []);
  }
  for (const [nodeName, pods] of input.podsByNode) {
    if (known.has(nodeName)) continue;
    for (const pod of pods) {
      if (!pod.metadata.deletionTimestamp)
        plan.deletions.push({ pod, reason: 'node-gone', force: pod.spec.nodeName !== undefined && pod.spec.nodeName !== '' });
    }
  }
  return plan;
}

function planNode(input: ManageInput, plan: ManagePlan, nodeName: string, eligibility: Eligibility, pods: readonly Readonly<Pod>[]): void {
  if (eligibility.shouldRun && pods.length === 0) {
    plan.createOn.push(nodeName);
    return;
  }
  if (!eligibility.shouldContinueRunning) {
    for (const pod of pods) if (!pod.metadata.deletionTimestamp) plan.deletions.push({ pod, reason: 'ineligible' });
    return;
  }
  const running: Readonly<Pod>[] = [];
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const phase = pod.status?.phase;
    if (phase === 'Failed' || phase === 'Succeeded') {
      // Kubernetes backs off per node here: a node that keeps rejecting the pod must not make
      // the controller create and delete pods in a hot loop.
      const wait = input.failedBackoff(nodeName);
      if (wait !== undefined) {
        plan.retryAfterMs = Math.min(plan.retryAfterMs ?? Infinity, wait);
        continue;
      }
      plan.deletions.push({ pod, reason: 'failed' });
      plan.failedOn.push(nodeName);
      continue;
    }
    running.push(pod);
  }
  if (running.length <= 1) return;
  running.sort(byAge);
  if (!input.surge) {
    // One daemon pod per node: the oldest stays.
    for (const pod of running.slice(1)) plan.deletions.push({ pod, reason: 'excess' });
    return;
  }
  // With surge a node may briefly run the oldest old pod beside the oldest new one; the old one
  // goes once the new one is available (or at once, when the old one is not even ready).
  let oldestNew: Readonly<Pod> | undefined;
  let oldestOld: Readonly<Pod> | undefined;
  for (const pod of running) {
    const updated = pod.metadata.labels?.[REVISION_HASH_LABEL] === input.hash;
    if (updated && !oldestNew) oldestNew = pod;
    else if (!updated && !oldestOld) oldestOld = pod;
    else plan.deletions.push({ pod, reason: 'excess' });
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, input.minReadySeconds, input.now))) {
    plan.deletions.push({ pod: oldestOld, reason: 'update' });
  }
}

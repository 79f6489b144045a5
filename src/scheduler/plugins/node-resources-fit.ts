// NodeResourcesFit: the pod's requests against what the node can still allocate — pods count,
// cpu, memory, ephemeral-storage and every extended resource (`example.com/gpu`). A node that
// does not advertise an extended resource has none of it.
import type { NodeInfo } from '../node-info.js';
import type { Plugin } from '../plugin.js';
import type { PodInfo } from '../pod-info.js';
import { unschedulable, type Status } from '../status.js';

export const REASON_TOO_MANY_PODS = 'Too many pods';

const insufficientReasons = new Map<string, string>();

/** `Insufficient <resource>`, interned: a rejecting filter should not build strings per node. */
export function insufficient(resource: string): string {
  let reason = insufficientReasons.get(resource);
  if (reason === undefined) insufficientReasons.set(resource, (reason = `Insufficient ${resource}`));
  return reason;
}

function scalarShortfalls(pod: PodInfo, node: NodeInfo, reasons: string[] | undefined): string[] | undefined {
  const wanted = pod.requests.scalar;
  if (wanted === undefined) return reasons;
  for (const [name, amount] of wanted) {
    const free = (node.allocatableScalar?.get(name) ?? 0) - (node.requestedScalar?.get(name) ?? 0);
    if (amount > free) (reasons ??= []).push(insufficient(name));
  }
  return reasons;
}

/** Every shortfall is reported, so the message counts a node under each resource it lacks. */
export function resourceShortfalls(pod: PodInfo, node: NodeInfo): string[] | undefined {
  const want = pod.requests;
  let reasons: string[] | undefined;
  if (node.podCount + 1 > node.allocPods) (reasons ??= []).push(REASON_TOO_MANY_PODS);
  if (want.milliCpu > 0 && want.milliCpu > node.allocMilliCpu - node.reqMilliCpu) (reasons ??= []).push(insufficient('cpu'));
  if (want.memory > 0 && want.memory > node.allocMemory - node.reqMemory) (reasons ??= []).push(insufficient('memory'));
  if (want.ephemeralStorage > 0 && want.ephemeralStorage > node.allocEphemeralStorage - node.reqEphemeralStorage) {
    (reasons ??= []).push(insufficient('ephemeral-storage'));
  }
  return scalarShortfalls(pod, node, reasons);
}

const singleShortfalls = new Map<string, Status>();

/** The node lacks one thing: that reason's Status, interned like the reason itself. */
function shortOf(reason: string): Status {
  let status = singleShortfalls.get(reason);
  if (status === undefined) singleShortfalls.set(reason, (status = unschedulable(reason)));
  return status;
}

export function nodeResourcesFit(): Plugin<void> {
  return {
    name: 'NodeResourcesFit',
    filter(_state, pod, node) {
      const reasons = resourceShortfalls(pod, node);
      if (reasons === undefined) return undefined;
      return reasons.length === 1 ? shortOf(reasons[0]!) : unschedulable(...reasons);
    },
  };
}

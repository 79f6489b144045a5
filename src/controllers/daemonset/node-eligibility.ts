// Which nodes a DaemonSet's pod belongs on (NodeShouldRunDaemonPod): the template's node name,
// node selector and required node affinity must match the node, and every NoSchedule/NoExecute
// taint must be tolerated — by the template's tolerations plus those Kubernetes gives every
// daemon pod. A pod already on a node may stay while only NoSchedule taints stand in the way.
import { compileRequiredNodeAffinity } from '../../api/scheduling/node-affinity.js';
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
} from '../../api/scheduling/taints.js';
import { toleratesAny } from '../../api/scheduling/tolerations.js';
import type { Node, PodSpec, Taint, Toleration } from '../../api/core/index.js';
import { nodeReadyStatus } from '../../api/core/node-conditions.js';

/** What decides where a daemon pod may run. */
export type PlacementFields = Pick<PodSpec, 'nodeName' | 'nodeSelector' | 'affinity' | 'tolerations' | 'hostNetwork'>;

/** The tolerations the DaemonSet controller adds to every daemon pod (AddOrUpdateDaemonPodTolerations). */
export function daemonTolerations(spec: Readonly<PlacementFields>): Toleration[] {
  const standard: Toleration[] = [
    { key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec.hostNetwork === true) standard.push({ key: TAINT_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' });
  const out = [...(spec.tolerations ?? [])];
  for (const toleration of standard) {
    const present = out.some((t) => t.key === toleration.key && t.effect === toleration.effect && (t.operator ?? 'Equal') === 'Exists');
    if (!present) out.push(toleration);
  }
  return out;
}

/**
 * The node's taints, plus those its state implies when nobody wrote them: Kubernetes' node
 * lifecycle controller taints not-ready and unreachable nodes NoSchedule and cordoned nodes
 * unschedulable, and the scheduler's readiness filter acts as if it had.
 */
export function effectiveTaints(node: Readonly<Node>): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const add = (key: string) => {
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, effect: 'NoSchedule' });
  };
  const ready = nodeReadyStatus(node);
  if (ready === 'False') add(TAINT_NOT_READY);
  else if (ready !== 'True') add(TAINT_UNREACHABLE);
  if (node.spec?.unschedulable === true) add(TAINT_UNSCHEDULABLE);
  return taints;
}

type NodeTest = (node: Readonly<Node>) => boolean;

/** nodeName, nodeSelector and required node affinity, compiled once per template. */
export function compileFitsNode(spec: Readonly<PlacementFields>): NodeTest {
  const nodeName = spec.nodeName;
  const required = compileRequiredNodeAffinity(spec);
  return (node) => {
    if (nodeName && nodeName !== node.metadata.name) return false;
    return required === undefined || required({ name: node.metadata.name ?? '', labels: node.metadata.labels ?? {} });
  };
}

export interface Eligibility {
  /** A daemon pod should be created here. */
  shouldRun: boolean;
  /** A daemon pod already here may stay. */
  shouldContinueRunning: boolean;
}

/** The eligibility test of one template, for every node. */
export function compileEligibility(spec: Readonly<PlacementFields>): (node: Readonly<Node>) => Eligibility {
  const fits = compileFitsNode(spec);
  const tolerations = daemonTolerations(spec);
  return (node) => {
    if (!fits(node)) return { shouldRun: false, shouldContinueRunning: false };
    let shouldRun = true;
    let shouldContinueRunning = true;
    for (const taint of effectiveTaints(node)) {
      if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
      if (toleratesAny(tolerations, taint)) continue;
      shouldRun = false;
      if (taint.effect === 'NoExecute') shouldContinueRunning = false;
    }
    return { shouldRun, shouldContinueRunning };
  };
}

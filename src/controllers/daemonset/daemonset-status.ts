// A DaemonSet's status, counted per node as Kubernetes does (updateDaemonSetStatus): only the
// oldest live daemon pod of a node counts for ready, available and updated.
import type { Eligibility } from './node-eligibility.js';
import { byAge, REVISION_HASH_LABEL, type DaemonSet, type DaemonSetStatus } from './types.js';
import { isPodAvailable, isPodReady, msUntilPodAvailable } from '../../api/core/pod-conditions.js';
import type { Node, Pod } from '../../api/core/index.js';

export interface StatusInput {
  ds: Readonly<DaemonSet>;
  nodes: readonly Readonly<Node>[];
  /** Live pods (not terminating, not finished) by node. */
  livePods: ReadonlyMap<string, readonly Readonly<Pod>[]>;
  eligibility(node: Readonly<Node>): Eligibility;
  hash: string;
  now: number;
}

export interface StatusResult {
  status: DaemonSetStatus;
  /** A ready pod becomes available after this long (minReadySeconds): count again then. */
  recheckAfterMs?: number;
}

export function computeStatus(input: StatusInput): StatusResult {
  const minReady = input.ds.spec.minReadySeconds ?? 0;
  const status: DaemonSetStatus = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
  };
  let recheckAfterMs: number | undefined;
  for (const node of input.nodes) {
    const pods = [...(input.livePods.get(node.metadata.name!) ?? [])].sort(byAge);
    const shouldRun = input.eligibility(node).shouldRun;
    const oldest = pods[0];
    if (!shouldRun) {
      if (oldest) status.numberMisscheduled++;
      continue;
    }
    status.desiredNumberScheduled++;
    if (!oldest) continue;
    status.currentNumberScheduled++;
    if (isPodReady(oldest)) {
      status.numberReady++;
      if (isPodAvailable(oldest, minReady, input.now)) status.numberAvailable++;
      else {
        const wait = msUntilPodAvailable(oldest, minReady, input.now);
        if (wait !== undefined) recheckAfterMs = Math.min(recheckAfterMs ?? Infinity, wait);
      }
    }
    if (oldest.metadata.labels?.[REVISION_HASH_LABEL] === input.hash) status.updatedNumberScheduled++;
  }
  status.numberUnavailable = status.desiredNumberScheduled - status.numberAvailable;
  if (input.ds.metadata.generation !== undefined) status.observedGeneration = input.ds.metadata.generation;
  return recheckAfterMs === undefined ? { status } : { status, recheckAfterMs };
}

const COUNTS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'observedGeneration',
] as const;

export function statusChanged(old: Partial<DaemonSetStatus> | undefined, next: DaemonSetStatus): boolean {
  return COUNTS.some((key) => (old?.[key] ?? 0) !== (next[key] ?? 0)) || old?.observedGeneration === undefined;
}

// One pass of Kubernetes' stateful set control (updateStatefulSet), as a pure decision: which
// pods to create and delete now. Ordinals in [start, start+replicas) are the replicas, others
// are condemned. OrderedReady (monotonic) acts on one pod per pass and only once every lower
// ordinal is Running and Ready: creates go up, scale-down goes down from the highest ordinal.
// Parallel creates and deletes everything it can at once. Then, unless the strategy is
// OnDelete, a rolling update deletes the highest-ordinal pod at or above the partition that is
// not at the update revision, one at a time, each replacement healthy before the next.
import { isHealthy, isTerminating } from './pod-health.js';
import { isPodFinished } from '../replicaset/pod-state.js';
import { ordinalOf } from './ordinals.js';
import { REVISION_LABEL } from './types.js';
import type { Pod } from '../../api/core/index.js';

export type Which = 'current' | 'update';

export type Action = { type: 'create'; ordinal: number; revision: Which } | { type: 'delete'; pod: Readonly<Pod>; reason: 'failed' | 'condemned' | 'update' };

export interface PlanInput {
  start: number;
  replicas: number;
  parallel: boolean;
  onDelete: boolean;
  partition: number;
  /** The set's pods (members by name). */
  pods: readonly Readonly<Pod>[];
  updateRevision: string;
  minReadySeconds: number;
  now: number;
}

export interface Slots {
  /** replicas[i] is the pod of ordinal start+i, if it exists. */
  replicas: Array<Readonly<Pod> | undefined>;
  /** Pods outside the range, highest ordinal first. */
  condemned: Readonly<Pod>[];
}

export function slotPods(pods: readonly Readonly<Pod>[], start: number, replicas: number): Slots {
  const slots: Slots = { replicas: new Array<Readonly<Pod> | undefined>(replicas).fill(undefined), condemned: [] };
  const ordinals = new Map<Readonly<Pod>, number>();
  for (const pod of pods) {
    const ordinal = ordinalOf(pod)?.ordinal;
    if (ordinal === undefined) continue;
    ordinals.set(pod, ordinal);
    if (ordinal >= start && ordinal < start + replicas) slots.replicas[ordinal - start] = pod;
    else slots.condemned.push(pod);
  }
  slots.condemned.sort((a, b) => ordinals.get(b)! - ordinals.get(a)!);
  return slots;
}

/** The revision a new pod at index i gets: below the partition it keeps the current revision. */
export function revisionForIndex(input: Pick<PlanInput, 'onDelete' | 'partition'>, index: number): Which {
  return !input.onDelete && index < input.partition ? 'current' : 'update';
}

export function planStatefulSet(input: PlanInput): Action[] {
  const monotonic = !input.parallel;
  const healthy = (pod: Readonly<Pod>) => isHealthy(pod, input.minReadySeconds, input.now);
  const { replicas, condemned } = slotPods(input.pods, input.start, input.replicas);
  const actions: Action[] = [];

  for (let i = 0; i < replicas.length; i++) {
    const pod = replicas[i];
    if (!pod) {
      actions.push({ type: 'create', ordinal: input.start + i, revision: revisionForIndex(input, i) });
      if (monotonic) return actions;
      continue;
    }
    // A finished pod is deleted; its successor, of the same name, is created once it is gone.
    if (isPodFinished(pod)) {
      if (!isTerminating(pod)) actions.push({ type: 'delete', pod, reason: 'failed' });
      if (monotonic) return actions;
      continue;
    }
    if (monotonic && !healthy(pod)) return actions;
  }

  // In monotonic mode every replica is healthy here; the first unhealthy condemned pod (the
  // highest ordinal) may go at once, a later one must wait for its predecessors.
  const firstUnhealthy = condemned.find((pod) => !healthy(pod));
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return actions;
      continue;
    }
    if (monotonic && !healthy(pod) && pod !== firstUnhealthy) return actions;
    actions.push({ type: 'delete', pod, reason: 'condemned' });
    if (monotonic) return actions;
  }

  if (input.onDelete) return actions;
  for (let target = replicas.length - 1; target >= input.partition; target--) {
    const pod = replicas[target];
    if (!pod) return actions; // being created this pass
    if (pod.metadata.labels?.[REVISION_LABEL] !== input.updateRevision && !isTerminating(pod)) {
      actions.push({ type: 'delete', pod, reason: 'update' });
      return actions;
    }
    if (!healthy(pod)) return actions;
  }
  return actions;
}

// The plugin contract of the scheduling framework (kube-scheduler's extension points, with
// Nomad's habit of explaining every rejection). A plugin implements only the stages it needs.
import type { KubeObject } from '../api/meta.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import type { ClusterSnapshot } from './snapshot.js';
import { SKIP, SUCCESS, unschedulable, type Status } from './status.js';

/** Every normalized score lies in 0..MAX_NODE_SCORE before weights apply. */
export const MAX_NODE_SCORE = 100;

export interface CycleContext {
  readonly snapshot: ClusterSnapshot;
  /** Wall-clock time of this scheduling attempt, ms since the epoch. */
  readonly now: number;
}

/**
 * PreFilter passed the pod: status SUCCESS, or SKIP when the plugin's filter has nothing to check
 * for this pod; `state` is handed to the plugin's later stages for this pod.
 */
export interface PreFilterPass<S> {
  readonly status: Status;
  readonly state: S;
  /** Nothing to prefer for this pod: the plugin's score is not run (all nodes would tie). */
  readonly skipScore?: boolean;
  /** Only these nodes can take the pod; the others are rejected with `excludedReason`. */
  readonly nodeNames?: ReadonlySet<string>;
  readonly excludedReason?: string;
  /** The verdict may change by itself at that time (a deadline passes): retry the pod then. */
  readonly retryAfterMs?: number;
}

/** The pod cannot be scheduled anywhere, whatever the nodes (e.g. an invalid annotation). */
export interface PreFilterReject {
  readonly status: Status;
  readonly retryAfterMs?: number;
}

export type PreFilterResult<S> = PreFilterPass<S> | PreFilterReject;

export interface Plugin<S = unknown> {
  readonly name: string;
  /** Default weight of this plugin's normalized score (kube-scheduler's default profile weights). */
  readonly weight?: number;
  /** Once per pod, before any node: parse what the later stages need. */
  preFilter?(pod: PodInfo, ctx: CycleContext): PreFilterResult<S>;
  /** Per node, hot path: undefined (or SUCCESS) admits the node, else why not. Must not allocate on success. */
  filter?(state: S, pod: PodInfo, node: NodeInfo): Status | undefined;
  /** Per feasible node: a raw score; normalizeScore brings the plugin's scores to 0–100. */
  score?(state: S, pod: PodInfo, node: NodeInfo): number;
  normalizeScore?(state: S, scores: Float64Array): void;
  /** The node was chosen and the pod assumed on it; a failure status rejects the placement. */
  reserve?(pod: PodInfo, nodeName: string, snapshot: ClusterSnapshot): Status | undefined;
  /** Undo reserve: a later stage, the permit wait or the binding failed. Must be idempotent. */
  unreserve?(pod: PodInfo, nodeName: string, snapshot: ClusterSnapshot): void;
  /** SUCCESS allows the pod; Wait holds it (assumed, resources reserved) at most timeoutMs; a failure rejects it. */
  permit?(pod: PodInfo, nodeName: string, snapshot: ClusterSnapshot): Status;
  /** The only stage allowed to do I/O; it runs outside the scheduling cycle. SKIP hands the pod to the next bind plugin. */
  bind?(pod: KubeObject, nodeName: string): Promise<Status>;
}

export function pass<S>(state: S, options: Omit<PreFilterPass<S>, 'status' | 'state'> & { readonly skipFilter?: boolean } = {}): PreFilterPass<S> {
  const { skipFilter, ...rest } = options;
  return { status: skipFilter === true ? SKIP : SUCCESS, state, ...rest };
}

export function reject(message: string, retryAfterMs?: number): PreFilterReject {
  const status = unschedulable(message);
  return retryAfterMs === undefined ? { status } : { status, retryAfterMs };
}

/** Whether the pre-filter let the pod through (SUCCESS or SKIP). */
export function preFilterPassed<S>(result: PreFilterResult<S>): result is PreFilterPass<S> {
  return 'state' in result;
}

/** Kubernetes' DefaultNormalizeScore: scale to 0–100 by the maximum; `reverse` makes fewer better. */
export function defaultNormalizeScore(scores: Float64Array, reverse: boolean): void {
  let max = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > max) max = scores[i]!;
  if (max === 0) {
    if (reverse) scores.fill(MAX_NODE_SCORE);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const scaled = Math.floor((MAX_NODE_SCORE * scores[i]!) / max);
    scores[i] = reverse ? MAX_NODE_SCORE - scaled : scaled;
  }
}

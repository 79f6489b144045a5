// RollingUpdate of a DaemonSet (DaemonSetsController.rollingUpdate): old pods are deleted (or,
// with maxSurge, new ones created beside them) while no more than maxUnavailable nodes lack an
// available daemon pod. The manage step then creates the replacements. Pure.
import type { DeleteReason } from './manage.js';
import { REVISION_HASH_LABEL, type IntOrString } from './types.js';
import { isPodAvailable } from '../../api/core/pod-conditions.js';
import type { Pod } from '../../api/core/index.js';

/** An int-or-percent as a count of `total` (percentages round up, as for DaemonSets). */
export function scaledValue(value: IntOrString | undefined, total: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number') return Math.max(0, Math.floor(value));
  const match = /^(\d+)%$/.exec(value.trim());
  if (match) return Math.ceil((Number(match[1]) * total) / 100);
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

export interface RollingUpdateInput {
  /** Nodes that should run a daemon pod, and nodes that have one, with their live pods (not terminating, not finished). */
  nodeToPods: ReadonlyMap<string, readonly Readonly<Pod>[]>;
  hash: string;
  maxUnavailable: number;
  maxSurge: number;
  minReadySeconds: number;
  now: number;
}

export interface RollingUpdatePlan {
  deletions: Array<{ pod: Readonly<Pod>; reason: DeleteReason }>;
  createOn: string[];
}

/** The one new and the one old pod of a node; undefined when the node has more (manage cleans it up). */
function splitPods(pods: readonly Readonly<Pod>[], hash: string): { newPod?: Readonly<Pod>; oldPod?: Readonly<Pod> } | undefined {
  let newPod: Readonly<Pod> | undefined;
  let oldPod: Readonly<Pod> | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (pod.metadata.labels?.[REVISION_HASH_LABEL] === hash) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}) };
}

export function planRollingUpdate(input: RollingUpdateInput): RollingUpdatePlan {
  return input.maxSurge > 0 ? planSurge(input) : planUnavailable(input);
}

function planUnavailable(input: RollingUpdateInput): RollingUpdatePlan {
  const available = (pod: Readonly<Pod>) => isPodAvailable(pod, input.minReadySeconds, input.now);
  let numUnavailable = 0;
  const replaceNow: Readonly<Pod>[] = [];
  const candidates: Readonly<Pod>[] = [];
  for (const nodeName of [...input.nodeToPods.keys()].sort()) {
    const split = splitPods(input.nodeToPods.get(nodeName)!, input.hash);
    if (!split) {
      numUnavailable++;
      continue;
    }
    const { newPod, oldPod } = split;
    if ((!newPod && !oldPod) || (newPod && oldPod)) numUnavailable++;
    else if (newPod) {
      if (!available(newPod)) numUnavailable++;
    } else if (!available(oldPod!)) replaceNow.push(oldPod!);
    else if (numUnavailable < input.maxUnavailable) candidates.push(oldPod!);
  }
  const budget = Math.max(0, Math.min(input.maxUnavailable - numUnavailable, candidates.length));
  return { deletions: [...replaceNow, ...candidates.slice(0, budget)].map((pod) => ({ pod, reason: 'update' as const })), createOn: [] };
}

function planSurge(input: RollingUpdateInput): RollingUpdatePlan {
  const available = (pod: Readonly<Pod>) => isPodAvailable(pod, input.minReadySeconds, input.now);
  let numSurge = 0;
  const deletions: RollingUpdatePlan['deletions'] = [];
  const allowed: string[] = [];
  const candidates: string[] = [];
  for (const nodeName of [...input.nodeToPods.keys()].sort()) {
    const split = splitPods(input.nodeToPods.get(nodeName)!, input.hash);
    if (!split) {
      numSurge++;
      continue;
    }
    const { newPod, oldPod } = split;
    if (!oldPod) continue; // up to date, or the manage step creates its pod
    if (!newPod) {
      if (!available(oldPod)) allowed.push(nodeName);
      else if (numSurge < input.maxSurge) candidates.push(nodeName);
    } else if (!available(newPod)) {
      numSurge++;
    } else {
      deletions.push({ pod: oldPod, reason: 'update' });
    }
  }
  const budget = Math.max(0, Math.min(input.maxSurge - numSurge, candidates.length));
  return { deletions, createOn: [...allowed, ...candidates.slice(0, budget)] };
}

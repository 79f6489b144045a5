// The parts of DaemonSets the DaemonSet controller reads (pods and nodes: src/api/core). The API validated
// these objects; fields are still optional here because the controller must not trust a shape
// it did not write.
import type { KubeObject } from '../../api/meta.js';
import type { LabelSelectorObject } from '../../api/selectors/index.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

export type IntOrString = number | string;

export interface DaemonSetSpec {
  selector?: LabelSelectorObject;
  template?: PodTemplateSpec;
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
  collisionCount?: number;
  conditions?: unknown[];
}

export interface DaemonSet extends KubeObject {
  spec: DaemonSetSpec;
  status?: Partial<DaemonSetStatus>;
}

/** The label carrying the hash of the template a daemon pod was made from. */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** Deprecated in Kubernetes but still written: the DaemonSet generation the pod was made at. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

export function isTerminal(pod: Readonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase === 'Failed' || phase === 'Succeeded';
}

export function isPodReady(pod: Readonly<Pod>): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/** Ready for at least minReadySeconds (podutil.IsPodAvailable). */
export function isPodAvailable(pod: Readonly<Pod>, minReadySeconds: number, now: number): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  if (!ready) return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(ready.lastTransitionTime ?? '');
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

/** Milliseconds until a ready pod becomes available; undefined when it is not ready or already is. */
export function msUntilAvailable(pod: Readonly<Pod>, minReadySeconds: number, now: number): number | undefined {
  if (minReadySeconds <= 0) return undefined;
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  const since = Date.parse(ready?.lastTransitionTime ?? '');
  if (!Number.isFinite(since)) return undefined;
  const left = since + minReadySeconds * 1000 - now;
  return left > 0 ? left : undefined;
}

/** Oldest first; among equals, the further along (Running before Pending), then by name. */
export function byAge(a: Readonly<Pod>, b: Readonly<Pod>): number {
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const rank = (p: Readonly<Pod>) => (p.status?.phase === 'Running' ? 0 : p.status?.phase === 'Pending' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

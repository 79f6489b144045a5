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

/** Oldest first; among equals, the further along (Running before Pending), then by name. */
export function byAge(a: Readonly<Pod>, b: Readonly<Pod>): number {
  const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const rank = (p: Readonly<Pod>) => (p.status?.phase === 'Running' ? 0 : p.status?.phase === 'Pending' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

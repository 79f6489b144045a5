// Pod priority as Kubernetes defines it (k8s.io/api/scheduling/v1 and pkg/apis/scheduling): the
// two built-in PriorityClasses, the ceiling of user-defined values, and how a pod's priority
// and preemption policy are read once admission has filled them in.
import type { KubeObject } from '../meta.js';

export const PRIORITY_CLASS_GROUP = 'scheduling.k8s.io';

/** User-defined classes may go up to this; above it lie only the system classes. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

/** A pod with no class and no cluster default gets this. */
export const DEFAULT_PRIORITY = 0;

export const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'] as const;
export type PreemptionPolicy = (typeof PREEMPTION_POLICIES)[number];

/** Names with this prefix are reserved for the built-in classes. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';

export interface SystemPriorityClass {
  readonly name: string;
  readonly value: number;
  readonly description: string;
}

/** The classes every cluster has from the start, with Kubernetes' values and descriptions. */
export const SYSTEM_PRIORITY_CLASSES: readonly SystemPriorityClass[] = [
  {
    name: 'system-node-critical',
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

export function systemPriorityClass(name: string): SystemPriorityClass | undefined {
  return SYSTEM_PRIORITY_CLASSES.find((pc) => pc.name === name);
}

/** Kubernetes' corev1helpers.PodPriority: spec.priority, 0 when unset. */
export function podPriority(pod: KubeObject): number {
  const priority = (pod['spec'] as { priority?: unknown } | undefined)?.priority;
  return typeof priority === 'number' ? priority : DEFAULT_PRIORITY;
}

/** Whether the pod may preempt others: anything but an explicit Never. */
export function mayPreempt(pod: KubeObject): boolean {
  return (pod['spec'] as { preemptionPolicy?: unknown } | undefined)?.preemptionPolicy !== 'Never';
}

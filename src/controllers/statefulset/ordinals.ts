// A StatefulSet's pods are `<set>-<ordinal>`: the name is the identity, and the ordinal orders
// creation, deletion and updates.
import type { StatefulSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

const MEMBER_NAME = /^(.*)-([0-9]+)$/;

export function podName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/** The ordinal of a pod named `<parent>-<n>`, or undefined when the name is not of that shape. */
export function ordinalOf(pod: Readonly<Pod>): { parent: string; ordinal: number } | undefined {
  const match = MEMBER_NAME.exec(pod.metadata.name ?? '');
  if (!match) return undefined;
  const ordinal = Number(match[2]);
  return Number.isSafeInteger(ordinal) ? { parent: match[1]!, ordinal } : undefined;
}

/** Whether the pod's name makes it one of the set's (Kubernetes' isMemberOf). */
export function isMemberOf(set: Readonly<StatefulSet>, pod: Readonly<Pod>): boolean {
  return ordinalOf(pod)?.parent === set.metadata.name;
}

export function startOrdinal(set: Readonly<StatefulSet>): number {
  return set.spec.ordinals?.start ?? 0;
}

// A PodGroup as the scheduler reads it: parsed once per use from the informer's read-only
// object, with coscheduling's defaults (minMember 1, a 60 s schedule timeout).
import { POD_GROUP_LABEL } from '../../api/schemas/scheduling.js';
import type { KubeObject } from '../../api/meta.js';
import { record, text } from '../object-access.js';
import { resourceList } from '../resources.js';

export { POD_GROUP_LABEL };

/** scheduler-plugins' permitWaitingTimeSeconds default. */
export const DEFAULT_SCHEDULE_TIMEOUT_SECONDS = 60;

export interface ParsedPodGroup {
  /** namespace/name */
  readonly key: string;
  readonly minMember: number;
  /** minResources in scheduler units (cpu in millicores); undefined when not set. */
  readonly minResources: ReadonlyMap<string, number> | undefined;
  readonly timeoutSeconds: number;
  readonly created: number;
  readonly uid: string;
}

/** The group a pod joins (`namespace/name`), or undefined for a pod outside any group. */
export function groupKeyOf(pod: Pick<KubeObject, 'metadata'>): string | undefined {
  const name = pod.metadata.labels?.[POD_GROUP_LABEL];
  return name ? `${pod.metadata.namespace ?? ''}/${name}` : undefined;
}

export function parsePodGroup(group: Readonly<KubeObject>): ParsedPodGroup {
  const spec = record(group['spec']);
  const minMember = typeof spec['minMember'] === 'number' && spec['minMember'] >= 1 ? spec['minMember'] : 1;
  const timeout = spec['scheduleTimeoutSeconds'];
  const minResources = spec['minResources'] === undefined ? undefined : resourceList(spec['minResources']);
  return {
    key: `${group.metadata.namespace ?? ''}/${group.metadata.name ?? ''}`,
    minMember,
    minResources: minResources !== undefined && minResources.size > 0 ? minResources : undefined,
    timeoutSeconds: typeof timeout === 'number' && timeout >= 1 ? timeout : DEFAULT_SCHEDULE_TIMEOUT_SECONDS,
    created: Date.parse(group.metadata.creationTimestamp ?? '') || 0,
    uid: group.metadata.uid ?? '',
  };
}

/** spec.priority (set by the API from priorityClassName), 0 when absent. */
export function podPriority(pod: Readonly<KubeObject>): number {
  const priority = record(pod['spec'])['priority'];
  return typeof priority === 'number' ? priority : 0;
}

export function isTerminalPod(pod: Readonly<KubeObject>): boolean {
  const phase = text(record(pod['status'])['phase']);
  return phase === 'Succeeded' || phase === 'Failed';
}

export function boundNode(pod: Readonly<KubeObject>): string | undefined {
  return text(record(pod['spec'])['nodeName']) || undefined;
}

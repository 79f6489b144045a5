// What the pages read of pods: resource requests and limits, restarts, the status kubectl shows.
import { parseQuantity } from '../quantity';
import type { KubeObject } from './types';

export interface Resources {
  cpuRequest: number;
  cpuLimit: number;
  memoryRequest: number;
  memoryLimit: number;
}

interface Container {
  name: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

/** The sum over a pod spec's containers (init containers run before, not beside: not counted). */
export function specResources(spec: { containers?: Container[] } | undefined): Resources {
  const sum: Resources = { cpuRequest: 0, cpuLimit: 0, memoryRequest: 0, memoryLimit: 0 };
  for (const c of spec?.containers ?? []) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    // Kubernetes defaults a request to its limit when only the limit is set.
    sum.cpuRequest += parseQuantity(requests['cpu'] ?? limits['cpu']);
    sum.memoryRequest += parseQuantity(requests['memory'] ?? limits['memory']);
    sum.cpuLimit += parseQuantity(limits['cpu']);
    sum.memoryLimit += parseQuantity(limits['memory']);
  }
  return sum;
}

export function isTerminal(pod: KubeObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

export function restartsOf(pod: KubeObject): number {
  const statuses: Array<{ restartCount?: number }> = pod.status?.containerStatuses ?? [];
  return statuses.reduce((sum, s) => sum + (s.restartCount ?? 0), 0);
}

/** The word kubectl's STATUS column shows: a waiting or terminated reason over the phase. */
export function podStatusWord(pod: KubeObject): string {
  if (pod.metadata.deletionTimestamp) return 'Terminating';
  const statuses: Array<{ state?: Record<string, { reason?: string }> }> = pod.status?.containerStatuses ?? [];
  for (const s of statuses) {
    const reason = s.state?.['waiting']?.reason ?? s.state?.['terminated']?.reason;
    if (reason) return reason;
  }
  return pod.status?.phase ?? 'Unknown';
}

/** Whether `labels` carry every pair of a matchLabels selector (matchExpressions are not used by the kinds shown). */
export function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

export function age(timestamp: string | undefined, now = Date.now()): string {
  if (!timestamp) return '';
  const seconds = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

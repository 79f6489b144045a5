// What the pages read of pods: resource requests and limits, restarts, the status kubectl shows.
import { summarizePod } from '../../../src/api/printers/pod-status.js';
import { since } from '../../../src/api/printers/format.js';
import { fromLabelSelectorObject } from '../../../src/api/selectors/index.js';
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
  return summarizePod(pod).restarts;
}

/** The word kubectl's STATUS column shows (Running, OOMKilled, Init:0/1, Terminating…): the API server's own printer. */
export function podStatusWord(pod: KubeObject): string {
  return summarizePod(pod).reason;
}

/**
 * The pods a workload's label selector (matchLabels and matchExpressions) selects, with the API
 * server's selector code, compiled once per call. An empty or malformed selector selects nothing
 * here: a workload's pods are never "every pod in the namespace".
 */
export function selectPods(selector: unknown, pods: readonly KubeObject[]): KubeObject[] {
  let compiled: ReturnType<typeof fromLabelSelectorObject>;
  try {
    compiled = fromLabelSelectorObject(selector as Parameters<typeof fromLabelSelectorObject>[0]);
  } catch {
    return [];
  }
  return compiled.isEmpty() ? [] : pods.filter((pod) => compiled.matches(pod.metadata.labels));
}

/** How long ago, as kubectl prints it (45s, 3m12s, 2d4h). */
export function age(timestamp: string | undefined, now = new Date()): string {
  return timestamp ? since(timestamp, now) : '';
}

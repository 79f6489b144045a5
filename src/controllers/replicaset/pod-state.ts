// What a controller needs to know about one pod: does it count, is it ready, is it available,
// and must it be replaced. Kubernetes' controller_utils semantics.
import type { Pod } from '../../api/core/index.js';
import { isPodReady, podReadySince } from '../../api/core/pod-conditions.js';

/** Counts towards the replicas: not terminating and not finished. */
export function isPodActive(pod: Readonly<Pod>): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/**
 * A pod that will never run again and must be replaced: Failed, or Succeeded although its
 * restartPolicy is Always (a container that was meant to keep running).
 */
export function isPodFinished(pod: Readonly<Pod>): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const phase = pod.status?.phase;
  if (phase === 'Failed') return true;
  return phase === 'Succeeded' && (pod.spec?.restartPolicy ?? 'Always') === 'Always';
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

function deletionCost(pod: Readonly<Pod>): number {
  const value = Number(pod.metadata.annotations?.[DELETION_COST]);
  return Number.isFinite(value) ? value : 0;
}

function restarts(pod: Readonly<Pod>): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/**
 * Orders pods by how willingly they are given up when scaling down, as Kubernetes does:
 * unscheduled before scheduled, Pending before Unknown before Running, not ready before ready,
 * lower pod-deletion-cost first, more pods of the set on the same node first, ready for a shorter
 * time first, more restarts first, newer before older.
 */
export function compareForDeletion(a: Readonly<Pod>, b: Readonly<Pod>, podsOnNode: ReadonlyMap<string, number>): number {
  const nodeA = a.spec?.nodeName ?? '';
  const nodeB = b.spec?.nodeName ?? '';
  if ((nodeA === '') !== (nodeB === '')) return nodeA === '' ? -1 : 1;
  const phaseA = PHASE_RANK[a.status?.phase ?? 'Pending'] ?? 0;
  const phaseB = PHASE_RANK[b.status?.phase ?? 'Pending'] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(a);
  const readyB = isPodReady(b);
  if (readyA !== readyB) return readyA ? 1 : -1;
  const costA = deletionCost(a);
  const costB = deletionCost(b);
  if (costA !== costB) return costA - costB;
  const rankA = podsOnNode.get(nodeA) ?? 0;
  const rankB = podsOnNode.get(nodeB) ?? 0;
  if (nodeA !== '' && rankA !== rankB) return rankB - rankA;
  if (readyA && readyB) {
    const sinceA = podReadySince(a) ?? 0;
    const sinceB = podReadySince(b) ?? 0;
    if (sinceA !== sinceB) return sinceB - sinceA;
  }
  const restartsA = restarts(a);
  const restartsB = restarts(b);
  if (restartsA !== restartsB) return restartsB - restartsA;
  const createdA = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
  const createdB = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
  if (createdA !== createdB) return createdB - createdA;
  return (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '');
}

/** The `count` pods to delete first. */
export function podsToDelete(pods: readonly Readonly<Pod>[], count: number): Readonly<Pod>[] {
  if (count >= pods.length) return [...pods];
  const podsOnNode = new Map<string, number>();
  for (const pod of pods) {
    const node = pod.spec?.nodeName;
    if (node) podsOnNode.set(node, (podsOnNode.get(node) ?? 0) + 1);
  }
  return [...pods].sort((a, b) => compareForDeletion(a, b, podsOnNode)).slice(0, count);
}

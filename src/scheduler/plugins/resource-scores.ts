// Resource-based scores, as kube-scheduler's default profile: prefer the emptiest node
// (LeastAllocated) and the node whose cpu and memory stay in balance (BalancedAllocation).
// Both count a container without requests as 100m / 200Mi, so best-effort pods spread too.
import type { NodeInfo } from '../node-info.js';
import { MAX_NODE_SCORE, type Plugin } from '../plugin.js';
import type { PodInfo } from '../pod-info.js';

function leastAllocated(requested: number, allocatable: number): number {
  if (allocatable === 0 || requested > allocatable) return 0;
  return Math.floor(((allocatable - requested) * MAX_NODE_SCORE) / allocatable);
}

/** Mean of the cpu and memory scores, each 100 on an empty node and 0 on a full one. */
export function leastAllocatedScore(pod: PodInfo, node: NodeInfo): number {
  const cpu = leastAllocated(node.nonZeroMilliCpu + pod.nonZeroMilliCpu, node.allocMilliCpu);
  const memory = leastAllocated(node.nonZeroMemory + pod.nonZeroMemory, node.allocMemory);
  return Math.floor((cpu + memory) / 2);
}

function fraction(requested: number, allocatable: number): number {
  if (allocatable === 0) return 1;
  return Math.min(requested / allocatable, 1);
}

/** 100 when cpu and memory would be equally used; the standard deviation of the two fractions lowers it. */
export function balancedAllocationScore(pod: PodInfo, node: NodeInfo): number {
  const cpu = fraction(node.nonZeroMilliCpu + pod.nonZeroMilliCpu, node.allocMilliCpu);
  const memory = fraction(node.nonZeroMemory + pod.nonZeroMemory, node.allocMemory);
  const std = Math.abs(cpu - memory) / 2;
  return Math.floor((1 - std) * MAX_NODE_SCORE);
}

export function leastAllocatedPlugin(): Plugin<void> {
  return {
    name: 'NodeResourcesLeastAllocated',
    weight: 1,
    score: (_state, pod, node) => leastAllocatedScore(pod, node),
  };
}

export function balancedAllocationPlugin(): Plugin<void> {
  return {
    name: 'NodeResourcesBalancedAllocation',
    weight: 1,
    score: (_state, pod, node) => balancedAllocationScore(pod, node),
  };
}

// kube-scheduler's percentageOfNodesToScore: in a big cluster, stop filtering once enough
// feasible nodes are found and score only those. Placement quality barely changes while the
// per-pod cost stops growing with the cluster.

export const MIN_FEASIBLE_NODES_TO_FIND = 100;
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
const BASE_PERCENTAGE_OF_NODES_TO_SCORE = 50;

/**
 * How many feasible nodes to look for. `percentage` 0 (the default) is adaptive: 50% of 100
 * nodes, one point less per 125 nodes, never under 5%; and never fewer than 100 nodes.
 */
export function numFeasibleNodesToFind(numAllNodes: number, percentage = 0): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentage >= 100) return numAllNodes;
  let adaptive = percentage;
  if (adaptive <= 0) {
    adaptive = BASE_PERCENTAGE_OF_NODES_TO_SCORE - Math.trunc(numAllNodes / 125);
    if (adaptive < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) adaptive = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const numNodes = Math.trunc((numAllNodes * adaptive) / 100);
  return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

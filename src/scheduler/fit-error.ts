// The FailedScheduling message, word for word as kube-scheduler's FitError prints it, so that
// `kubectl describe pod` reads the same on Drover as on Kubernetes.

/**
 * `0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu.`
 * Each node counts once per reason it gave; the "count reason" strings are sorted as plain
 * strings (Go's sort.Strings), which is why "1 node(s)…" comes before "2 Insufficient cpu".
 * A pre-filter rejection replaces the per-node histogram (it would repeat the same text N times).
 */
export function fitErrorMessage(numAllNodes: number, reasonsPerNode: Readonly<Record<string, readonly string[]>>, preFilterMessage?: string): string {
  let message = `0/${numAllNodes} nodes are available:`;
  if (preFilterMessage !== undefined) return `${message} ${preFilterMessage}.`;
  const histogram = new Map<string, number>();
  for (const node in reasonsPerNode) {
    for (const reason of reasonsPerNode[node] ?? []) histogram.set(reason, (histogram.get(reason) ?? 0) + 1);
  }
  const lines = [...histogram].map(([reason, count]) => `${count} ${reason}`);
  lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (lines.length > 0) message += ` ${lines.join(', ')}.`;
  return message;
}

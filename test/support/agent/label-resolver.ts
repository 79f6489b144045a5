// For tests of the streaming server: a resolver from the runtimes' labels alone, without an
// agent or its pod cache. It does not know which cluster or node an object belongs to; the agent's
// own resolver (src/agent/container-resolver.ts) does.

import { ATTEMPT, CONTAINER_NAME, POD_NAME, POD_NAMESPACE, POD_UID, attemptFromLabels } from '../../../src/agent/runtime/labels.js';
import type { ContainerRuntime, ContainerSummary, SandboxInfo } from '../../../src/agent/runtime/runtime.js';
import type { ContainerResolver, ResolvedContainer } from '../../../src/agent/streaming/resolver.js';

interface Candidate<T> {
  runtime: ContainerRuntime;
  item: T;
}

async function collect<T>(runtimes: readonly ContainerRuntime[], list: (runtime: ContainerRuntime) => Promise<T[]>): Promise<Array<Candidate<T>>> {
  const lists = await Promise.all(runtimes.map(async (runtime) => (await list(runtime)).map((item) => ({ runtime, item }))));
  return lists.flat();
}

/** The pod instance a name means now: the one whose objects were created last (a recreated pod has a new uid). */
function newestUid<T extends { labels: Record<string, string>; createdAt: Date }>(candidates: Array<Candidate<T>>): string | undefined {
  let newest: Candidate<T> | undefined;
  for (const c of candidates) if (!newest || c.item.createdAt > newest.item.createdAt) newest = c;
  return newest?.item.labels[POD_UID];
}

function byAttemptDescending(a: Candidate<ContainerSummary>, b: Candidate<ContainerSummary>): number {
  const attempts = attemptFromLabels(b.item.labels) - attemptFromLabels(a.item.labels);
  return attempts !== 0 ? attempts : b.item.createdAt.getTime() - a.item.createdAt.getTime();
}

async function resolveContainer(
  runtimes: readonly ContainerRuntime[],
  namespace: string,
  pod: string,
  container: string,
): Promise<ResolvedContainer | undefined> {
  const labels = { [POD_NAMESPACE]: namespace, [POD_NAME]: pod, [CONTAINER_NAME]: container, [ATTEMPT]: true as const };
  const found = await collect(runtimes, (runtime) => runtime.listContainers({ labels, all: true }));
  const uid = newestUid(found);
  const attempts = found.filter((c) => c.item.labels[POD_UID] === uid).sort(byAttemptDescending);
  const [current, previous] = attempts;
  if (!current) return undefined;
  return {
    runtime: current.runtime,
    containerId: current.item.id,
    ...(previous ? { previousContainerId: previous.item.id } : {}),
    ...(current.runtime.name === 'process' ? { hostNetwork: true } : {}),
  };
}

async function resolveSandbox(runtimes: readonly ContainerRuntime[], namespace: string, pod: string): Promise<ResolvedContainer | undefined> {
  const labels = { [POD_NAMESPACE]: namespace, [POD_NAME]: pod };
  const found = await collect(runtimes, (runtime) => runtime.listSandboxes({ labels, all: true }));
  const uid = newestUid<SandboxInfo>(found);
  const mine = found.filter((c) => c.item.labels[POD_UID] === uid);
  // A running sandbox over a newer stopped one: a port-forward needs a live network namespace.
  mine.sort((a, b) => Number(b.item.state === 'running') - Number(a.item.state === 'running') || b.item.attempt - a.item.attempt);
  const chosen = mine[0];
  if (!chosen) return undefined;
  return { runtime: chosen.runtime, containerId: chosen.item.id, ...(chosen.runtime.name === 'process' ? { hostNetwork: true } : {}) };
}

/**
 * Resolves by labels over one or more runtimes: a container's newest attempt (and the one before
 * it), or for a pod-level request the pod's running sandbox.
 */
export function labelResolver(runtimes: ContainerRuntime | readonly ContainerRuntime[]): ContainerResolver {
  const list: readonly ContainerRuntime[] = Array.isArray(runtimes) ? runtimes : [runtimes as ContainerRuntime];
  return (namespace, pod, container) => (container === undefined ? resolveSandbox(list, namespace, pod) : resolveContainer(list, namespace, pod, container));
}

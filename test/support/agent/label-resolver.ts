// For tests of the streaming server: a ContainerResolver from the runtimes' labels alone, without
// an agent or its pod cache. It knows neither the pod's spec nor which cluster or node an object
// belongs to; the agent's own resolver (src/agent/container-resolver.ts) does. A pod or container
// it finds no object of is a 404.

import { ATTEMPT, CONTAINER_NAME, POD_NAME, POD_NAMESPACE, POD_UID, attemptFromLabels } from '../../../src/agent/runtime/labels.js';
import type { ContainerRuntime, ContainerSummary, SandboxInfo } from '../../../src/agent/runtime/runtime.js';
import { ResolveError, podNotFound, previousNotFound, type ContainerResolver, type ResolvedContainer } from '../../../src/agent/streaming/resolver.js';

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

/** Host processes share the node's network; labels do not tell a hostNetwork pod on Docker. */
const dialDirect = (runtime: ContainerRuntime) => runtime.name === 'process';

/** The sandbox of the pod's instance `uid` (by default the newest): a running one over a newer stopped one, since a port-forward needs a live network namespace. */
async function sandboxOf(runtimes: readonly ContainerRuntime[], namespace: string, pod: string, uid?: string): Promise<Candidate<SandboxInfo> | undefined> {
  const labels = { [POD_NAMESPACE]: namespace, [POD_NAME]: pod };
  const found = await collect(runtimes, (runtime) => runtime.listSandboxes({ labels, all: true }));
  const wanted = uid ?? newestUid(found);
  const mine = found.filter((c) => c.item.labels[POD_UID] === wanted);
  mine.sort((a, b) => Number(b.item.state === 'running') - Number(a.item.state === 'running') || b.item.attempt - a.item.attempt);
  return mine[0];
}

/** A container's newest attempt (with `previous`, the one before it) and the attempt before that. */
async function resolveContainer(
  runtimes: readonly ContainerRuntime[],
  namespace: string,
  pod: string,
  container: string,
  previous: boolean,
): Promise<ResolvedContainer> {
  const labels = { [POD_NAMESPACE]: namespace, [POD_NAME]: pod, [CONTAINER_NAME]: container, [ATTEMPT]: true as const };
  const found = await collect(runtimes, (runtime) => runtime.listContainers({ labels, all: true }));
  const uid = newestUid(found);
  const attempts = found.filter((c) => c.item.labels[POD_UID] === uid).sort(byAttemptDescending);
  const chosen = attempts[previous ? 1 : 0];
  if (!chosen) throw previous ? previousNotFound(container, pod) : new ResolveError(404, `container "${container}" not found in pod "${pod}"`);
  const sandbox = await sandboxOf(runtimes, namespace, pod, uid);
  return {
    runtime: chosen.runtime,
    containerName: container,
    containerId: chosen.item.id,
    state: chosen.item.state,
    previousContainerId: attempts[previous ? 2 : 1]?.item.id,
    sandboxId: sandbox?.item.id,
    dialDirect: dialDirect(chosen.runtime),
  };
}

/** Resolves by labels over one or more runtimes (Docker and host processes, say). */
export function labelResolver(runtimes: ContainerRuntime | readonly ContainerRuntime[]): ContainerResolver {
  const list: readonly ContainerRuntime[] = Array.isArray(runtimes) ? runtimes : [runtimes as ContainerRuntime];
  return {
    async resolve(namespace, pod, container, options = {}) {
      // Labels name no default container; the streaming server always names one.
      if (!container) throw new ResolveError(400, `a container name must be specified for pod ${pod}`);
      return resolveContainer(list, namespace, pod, container, options.previous ?? false);
    },
    async resolveSandbox(namespace, pod) {
      const sandbox = await sandboxOf(list, namespace, pod);
      if (!sandbox) throw podNotFound(pod);
      return { runtime: sandbox.runtime, sandboxId: sandbox.item.id, dialDirect: dialDirect(sandbox.runtime) };
    },
  };
}

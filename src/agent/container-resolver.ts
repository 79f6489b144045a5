// The agent's answer to what the streaming server asks (streaming/resolver.ts): (namespace, pod,
// container) → the runtime and container id, from the agent's pod cache (by uid) and the runtime's
// labels: only this agent's objects (its cluster's, its node's) of the pod the API has now, so pods
// of the same name on other nodes or in other clusters sharing the Docker Engine are never confused.
import { podFilter, type Owner } from './agent-labels.js';
import { CONTAINER_NAME, attemptFromLabels } from './runtime/labels.js';
import type { ContainerRuntime } from './runtime/runtime.js';
import type { RuntimeSet } from './pods/deps.js';
import { ResolveError, podNotFound, previousNotFound, type ContainerResolver } from './streaming/resolver.js';
import type { Pod } from '../api/core/index.js';

const DEFAULT_CONTAINER = 'kubectl.kubernetes.io/default-container';

function containerNameOf(pod: Readonly<Pod>, given: string | undefined): string {
  const names = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].map((c) => c.name);
  if (given) {
    if (!names.includes(given)) throw new ResolveError(400, `container ${given} is not valid for pod ${pod.metadata.name ?? ''}`);
    return given;
  }
  const annotated = pod.metadata.annotations?.[DEFAULT_CONTAINER];
  if (annotated && names.includes(annotated)) return annotated;
  if (pod.spec.containers.length === 1) return pod.spec.containers[0]!.name;
  throw new ResolveError(
    400,
    `a container name must be specified for pod ${pod.metadata.name ?? ''}, choose one of: [${pod.spec.containers.map((c) => c.name).join(' ')}]`,
  );
}

function dialDirect(pod: Readonly<Pod>, runtime: ContainerRuntime): boolean {
  return runtime.name === 'process' || pod.spec.hostNetwork === true;
}

export function createResolver(owner: Owner, runtimes: RuntimeSet, podOf: (namespace: string, name: string) => Readonly<Pod> | undefined): ContainerResolver {
  const findPod = (namespace: string, name: string): Readonly<Pod> => {
    const pod = podOf(namespace, name);
    if (!pod) throw podNotFound(name);
    return pod;
  };
  const sandboxOf = async (runtime: ContainerRuntime, uid: string): Promise<string | undefined> => {
    const list = await runtime.listSandboxes({ ...podFilter(owner, uid), all: false });
    return list.sort((a, b) => b.attempt - a.attempt)[0]?.id;
  };
  return {
    async resolve(namespace, podName, given, options = {}) {
      const pod = findPod(namespace, podName);
      const name = containerNameOf(pod, given);
      const runtime = runtimes.forPod(pod);
      const uid = pod.metadata.uid ?? '';
      const list = await runtime.listContainers(podFilter(owner, uid, { [CONTAINER_NAME]: name }));
      list.sort((a, b) => attemptFromLabels(b.labels) - attemptFromLabels(a.labels) || b.createdAt.getTime() - a.createdAt.getTime());
      const found = list[options.previous ? 1 : 0];
      const before = list[options.previous ? 2 : 1];
      if (!found) {
        if (options.previous) throw previousNotFound(name, podName);
        throw new ResolveError(400, `container "${name}" in pod "${podName}" is waiting to start: ContainerCreating`);
      }
      const sandboxId = await sandboxOf(runtime, uid);
      return {
        runtime,
        containerName: name,
        containerId: found.id,
        state: found.state,
        previousContainerId: before?.id,
        sandboxId,
        dialDirect: dialDirect(pod, runtime),
      };
    },
    async resolveSandbox(namespace, podName) {
      const pod = findPod(namespace, podName);
      const runtime = runtimes.forPod(pod);
      const sandboxId = await sandboxOf(runtime, pod.metadata.uid ?? '');
      if (!sandboxId) throw new ResolveError(400, `pod ${podName} has no running sandbox`);
      return { runtime, sandboxId, dialDirect: dialDirect(pod, runtime) };
    },
  };
}

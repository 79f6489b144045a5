// How the streaming server (logs, exec, attach, port-forward, signal) finds what to talk to:
// (namespace, pod, container) → the runtime and container id, from the agent's pod cache
// and the runtime's labels. Errors carry an HTTP code and Kubernetes' wording.
import { podFilter, type Owner } from './agent-labels.js';
import { CONTAINER_NAME, attemptFromLabels } from './runtime/labels.js';
import type { ContainerRuntime, ContainerSummary } from './runtime/runtime.js';
import type { RuntimeSet } from './pods/deps.js';
import type { ContainerResolver as StreamingResolver } from './streaming/resolver.js';
import type { Pod } from '../api/core/index.js';

export class ResolveError extends Error {
  constructor(
    readonly code: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'ResolveError';
  }
}

export interface ResolvedContainer {
  pod: Readonly<Pod>;
  runtime: ContainerRuntime;
  containerName: string;
  containerId: string;
  /** `running`, `created` or `exited`, from the runtime's list. */
  state: ContainerSummary['state'];
  /** The instance before this one (`logs --previous` of the current request), if any. */
  previousContainerId: string | undefined;
  /** The pod's sandbox (network namespace), when it has one. */
  sandboxId: string | undefined;
  /**
   * The pod shares the node's network (process runtime, hostNetwork): reach its ports on
   * 127.0.0.1 from the agent. Otherwise exec a client in the sandbox (it has /bin/busybox).
   */
  dialDirect: boolean;
}

export interface ResolvedSandbox {
  pod: Readonly<Pod>;
  runtime: ContainerRuntime;
  sandboxId: string;
  dialDirect: boolean;
}

export interface ResolveOptions {
  /** The instance before the newest (kubectl logs --previous). */
  previous?: boolean;
}

export interface ContainerResolver {
  /** Without a container name: the pod's default container (annotation, or the only one). */
  resolve(namespace: string, podName: string, containerName?: string, options?: ResolveOptions): Promise<ResolvedContainer>;
  /** The pod's running sandbox, for port-forward: exec a client in it to reach the pod's loopback. */
  resolveSandbox(namespace: string, podName: string): Promise<ResolvedSandbox>;
}

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
    if (!pod) throw new ResolveError(404, `pods "${name}" not found`);
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
        const what = options.previous ? `previous terminated container "${name}"` : `container "${name}"`;
        throw new ResolveError(
          options.previous ? 404 : 400,
          `${what} in pod "${podName}" ${options.previous ? 'not found' : 'is waiting to start: ContainerCreating'}`,
        );
      }
      const sandboxId = await sandboxOf(runtime, uid);
      return {
        pod,
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
      return { pod, runtime, sandboxId, dialDirect: dialDirect(pod, runtime) };
    },
  };
}

/**
 * The resolver in the shape the streaming server takes (src/agent/streaming/resolver.ts): only
 * this agent's objects (its cluster's, its node's) of the pod the API has now (by uid), so pods of
 * the same name on other nodes or in other clusters sharing the Docker Engine are never confused.
 */
export function streamingResolver(resolver: ContainerResolver): StreamingResolver {
  return async (namespace, pod, container) => {
    try {
      if (container === undefined) {
        const sandbox = await resolver.resolveSandbox(namespace, pod);
        return { runtime: sandbox.runtime, containerId: sandbox.sandboxId, hostNetwork: sandbox.dialDirect };
      }
      const found = await resolver.resolve(namespace, pod, container);
      return {
        runtime: found.runtime,
        containerId: found.containerId,
        hostNetwork: found.dialDirect,
        ...(found.previousContainerId ? { previousContainerId: found.previousContainerId } : {}),
      };
    } catch (error) {
      if (error instanceof ResolveError) return undefined;
      throw error;
    }
  };
}

// What the streaming server (logs, exec, attach, port-forward, signal) asks of whoever knows the
// node's pods: (namespace, pod, container) → the runtime and the container, or the pod's sandbox
// for port-forward. The agent answers from its pod cache and the runtime's labels
// (../container-resolver.ts). A resolver that finds nothing throws a ResolveError, and the
// streaming server answers with its HTTP code and words, Kubernetes' own.

import type { ContainerRuntime, ContainerSummary } from '../runtime/runtime.js';

export class ResolveError extends Error {
  constructor(
    readonly code: 400 | 404,
    message: string,
  ) {
    super(message);
    this.name = 'ResolveError';
  }
}

/** The pod is not on this node (or not yet: an agent still starting knows no pods). */
export const podNotFound = (pod: string) => new ResolveError(404, `pods "${pod}" not found`);

/** `logs --previous` of a container that never ran before its current instance: 400, as the kubelet answers. */
export const previousNotFound = (container: string, pod: string) =>
  new ResolveError(400, `previous terminated container "${container}" in pod "${pod}" not found`);

export interface ResolvedContainer {
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

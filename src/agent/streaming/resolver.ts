// Which runtime object a streaming request means: the agent supplies the resolver, since it
// knows its pods (../container-resolver.ts).

import type { ContainerRuntime } from '../runtime/runtime.js';

export interface ResolvedContainer {
  runtime: ContainerRuntime;
  /** The container; for a pod-level request (port-forward), the pod's sandbox. */
  containerId: string;
  /** The attempt before the current one, for `logs --previous`. */
  previousContainerId?: string;
  /**
   * The pod shares the node's network (process runtime, hostNetwork), so its ports are reached
   * on the node's loopback rather than from inside the sandbox.
   */
  hostNetwork?: boolean;
}

/** `container` is absent for pod-level requests (port-forward). */
export type ContainerResolver = (namespace: string, pod: string, container?: string) => Promise<ResolvedContainer | undefined>;

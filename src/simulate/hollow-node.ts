// The Node a hollow node registers and the status it reports: the agent's own builders
// (node-object.ts) fed with made-up facts instead of this machine's, so a hollow node looks
// to the scheduler and controllers exactly as a real one does — same labels, conditions,
// capacity rules — while its capacity is whatever the simulation asks for.
import type { KubeObject } from '../api/meta.js';
import type { HostFacts } from '../agent/node/host-info.js';
import { buildNodeStatus, nodeLabels, nodeObject, type ReportedNodeStatus } from '../agent/node/node-object.js';

/** Marks the Nodes `drover simulate` serves, so they can be selected (or avoided) by label. */
export const HOLLOW_LABEL = 'drover.dev/hollow';
/** nodeInfo.containerRuntimeVersion: no runtime runs anything. */
export const HOLLOW_RUNTIME_VERSION = 'hollow://0.1.0';
/** Every hollow node is on the loopback address: nothing may ever dial it elsewhere. */
export const HOLLOW_NODE_ADDRESS = '127.0.0.1';

const GiB = 1024 ** 3;

export interface HollowNodeShape {
  cpu: number;
  memoryBytes: number;
  /** status.capacity.pods (the kubelet's --max-pods). */
  maxPods: number;
  labels: Readonly<Record<string, string>>;
  extendedResources: Readonly<Record<string, number>>;
}

/** kwok's default fake node: 32 cores, 256 GiB, 110 pods. */
export const DEFAULT_SHAPE: HollowNodeShape = { cpu: 32, memoryBytes: 256 * GiB, maxPods: 110, labels: {}, extendedResources: {} };

export function hollowFacts(nodeName: string, shape: HollowNodeShape): HostFacts {
  return {
    cpus: shape.cpu,
    memoryBytes: shape.memoryBytes,
    diskBytes: 100 * GiB,
    hostname: nodeName,
    os: 'linux',
    arch: 'amd64',
    kernelVersion: '',
    osImage: 'Drover hollow node',
    machineID: '',
    bootID: '',
  };
}

export function hollowNodeObject(nodeName: string, shape: HollowNodeShape): KubeObject {
  return nodeObject(nodeName, hollowLabels(nodeName, shape));
}

export function hollowLabels(nodeName: string, shape: HollowNodeShape): Record<string, string> {
  return nodeLabels(nodeName, hollowFacts(nodeName, shape), { ...shape.labels, [HOLLOW_LABEL]: 'true' });
}

/** Ready, no pressure, no streaming endpoint (port 0: logs and exec answer 503, nothing is dialled). */
export function hollowNodeStatus(nodeName: string, shape: HollowNodeShape, previous?: Partial<ReportedNodeStatus>, now?: Date): ReportedNodeStatus {
  const status = buildNodeStatus({
    nodeName,
    nodeAddress: HOLLOW_NODE_ADDRESS,
    streamingPort: 0,
    facts: hollowFacts(nodeName, shape),
    pressure: { memoryAvailableBytes: undefined, diskFreeRatio: undefined, pidsUsed: undefined, pidMax: undefined },
    runtime: { ready: true, version: HOLLOW_RUNTIME_VERSION },
    extendedResources: shape.extendedResources,
    previous,
    ...(now ? { now } : {}),
  });
  status.capacity['pods'] = String(shape.maxPods);
  status.allocatable['pods'] = String(shape.maxPods);
  return status;
}

// The Node object the agent registers and the status it heartbeats, built from plain facts so
// that the rules (capacity units, condition reasons, transition times) are unit-tested.
import type { KubeObject } from '../../api/meta.js';
import type { NodeCondition, NodeStatus } from '../../api/core/index.js';
import { k8sTime } from '../util/time.js';
import { DISK_FREE_MIN_RATIO, MEMORY_AVAILABLE_MIN_BYTES, PID_USED_MAX_RATIO, type HostFacts, type Pressure } from './host-info.js';
import { jsonEqual } from '../../util/json-equal.js';

export const KUBELET_VERSION = 'v1.32.0-drover';
export const MAX_PODS = 110;

/** The status the agent writes: every part it reports is present. */
export type ReportedNodeStatus = NodeStatus &
  Required<Pick<NodeStatus, 'capacity' | 'allocatable' | 'conditions' | 'addresses' | 'daemonEndpoints' | 'nodeInfo'>>;

export interface RuntimeHealth {
  ready: boolean;
  reason?: string;
  message?: string;
  /** `docker://27.5.1`, as nodeInfo.containerRuntimeVersion. */
  version: string;
}

export interface NodeStatusInput {
  nodeName: string;
  nodeAddress: string;
  streamingPort: number;
  facts: HostFacts;
  pressure: Pressure;
  runtime: RuntimeHealth;
  extendedResources: Readonly<Record<string, number>>;
  /** Discovered devices (GPUs): capacity, the healthy part as allocatable, their conditions. */
  devices?: DeviceReport | undefined;
  /** The status last written, so unchanged conditions keep their lastTransitionTime. */
  previous?: Partial<ReportedNodeStatus> | undefined;
  now?: Date;
}

/** What discovered devices add to the status: capacity counts every device, allocatable only healthy ones. */
export interface DeviceReport {
  capacity: Record<string, number>;
  allocatable: Record<string, number>;
  conditions: ConditionCore[];
}

export function nodeLabels(nodeName: string, facts: HostFacts, user: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    ...user,
    'kubernetes.io/hostname': nodeName,
    'kubernetes.io/os': facts.os,
    'kubernetes.io/arch': facts.arch,
    'beta.kubernetes.io/os': facts.os,
    'beta.kubernetes.io/arch': facts.arch,
  };
}

export function nodeObject(nodeName: string, labels: Record<string, string>, annotations: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName, labels, ...(Object.keys(annotations).length > 0 ? { annotations } : {}) }, spec: {} };
}

function kibibytes(bytes: number): string {
  return `${Math.floor(bytes / 1024)}Ki`;
}

export function capacityOf(facts: HostFacts, extended: Readonly<Record<string, number>>): Record<string, string> {
  const capacity: Record<string, string> = {
    cpu: String(facts.cpus),
    'ephemeral-storage': kibibytes(facts.diskBytes),
    memory: kibibytes(facts.memoryBytes),
    pods: String(MAX_PODS),
  };
  for (const [name, count] of Object.entries(extended)) capacity[name] = String(count);
  return capacity;
}

export type ConditionCore = Pick<NodeCondition, 'type' | 'status' | 'reason' | 'message'>;

function pressureConditions(p: Pressure): ConditionCore[] {
  const memory = p.memoryAvailableBytes !== undefined && p.memoryAvailableBytes < MEMORY_AVAILABLE_MIN_BYTES;
  const disk = p.diskFreeRatio !== undefined && p.diskFreeRatio < DISK_FREE_MIN_RATIO;
  const pid = p.pidsUsed !== undefined && p.pidMax !== undefined && p.pidMax > 0 && p.pidsUsed / p.pidMax > PID_USED_MAX_RATIO;
  return [
    memory
      ? { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' }
      : { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    disk
      ? { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' }
      : { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    pid
      ? { type: 'PIDPressure', status: 'True', reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' }
      : { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  ];
}

function readyCondition(runtime: RuntimeHealth): ConditionCore {
  if (runtime.ready) return { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' };
  const why = runtime.message ?? runtime.reason ?? 'the container runtime does not answer';
  return { type: 'Ready', status: 'False', reason: 'ContainerRuntimeUnhealthy', message: `container runtime is down: ${why}` };
}

/** Conditions with heartbeat now; lastTransitionTime moves only when a status flips. */
export function nodeConditions(input: NodeStatusInput): NodeCondition[] {
  const now = k8sTime(input.now);
  const before = new Map((input.previous?.conditions ?? []).map((c) => [c.type, c]));
  const ours = [...pressureConditions(input.pressure), readyCondition(input.runtime), ...(input.devices?.conditions ?? [])].map((c): NodeCondition => {
    const old = before.get(c.type);
    const lastTransitionTime = old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now;
    return { ...c, lastHeartbeatTime: now, lastTransitionTime };
  });
  // Conditions other components own (NetworkUnavailable, say) are kept as they are.
  const foreign = (input.previous?.conditions ?? []).filter((c) => !ours.some((o) => o.type === c.type));
  return [...foreign, ...ours];
}

export function buildNodeStatus(input: NodeStatusInput): ReportedNodeStatus {
  const capacity = capacityOf(input.facts, { ...input.devices?.capacity, ...input.extendedResources });
  const allocatable = { ...capacity };
  for (const [name, count] of Object.entries(input.devices?.allocatable ?? {})) {
    if (!(name in input.extendedResources)) allocatable[name] = String(count);
  }
  const { facts } = input;
  return {
    capacity,
    allocatable,
    conditions: nodeConditions(input),
    addresses: [
      { type: 'InternalIP', address: input.nodeAddress },
      { type: 'Hostname', address: input.nodeName },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: input.streamingPort } },
    nodeInfo: {
      machineID: facts.machineID,
      systemUUID: facts.machineID,
      bootID: facts.bootID,
      kernelVersion: facts.kernelVersion,
      osImage: facts.osImage,
      containerRuntimeVersion: input.runtime.version,
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: facts.os,
      architecture: facts.arch,
    },
  };
}

/** Whether two statuses differ in anything but heartbeat times (what forces an early write). */
export function statusChanged(a: ReportedNodeStatus, b: Partial<ReportedNodeStatus> | undefined): boolean {
  if (!b) return true;
  const strip = (s: Partial<ReportedNodeStatus>): unknown => ({ ...s, conditions: (s.conditions ?? []).map(({ lastHeartbeatTime: _h, ...rest }) => rest) });
  return !jsonEqual(strip(a), strip(b));
}

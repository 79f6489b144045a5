// Wires the GPU monitor into an agent: the allocator's capacity and unhealthy devices, the
// Node's capacity/allocatable/labels/condition/annotations, the pods' GPU ids, and /metrics.
import { join } from 'node:path';
import { Registry } from 'prom-client';
import type { Logger } from '../../client/index.js';
import type { KernelLog } from '../node/kernel-log.js';
import type { NodeDevices } from '../node/node-manager.js';
import { GPU_RESOURCE, containerDevices, type DeviceAllocator, type DeviceIds } from '../pods/devices.js';
import { AnnotationThrottle } from './gpu-annotations.js';
import { gpuRegistry, type GpuHolder } from './gpu-metrics.js';
import { discoverGpus, type GpuMonitor } from './gpu-monitor.js';
import { parseXid } from './xid.js';
import type { Pod } from '../../api/core/index.js';

export interface NodeGpus {
  monitor: GpuMonitor | undefined;
  /** Device counts to add to the allocator's capacity. */
  capacity: Record<string, number>;
  /** For the pods' CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES; absent on a node without GPUs. */
  ids: { ids: DeviceIds } | undefined;
}

/**
 * GPUs of this node. `--extended-resource nvidia.com/gpu=N` wins over discovery (a node whose
 * nvidia-smi cannot be trusted, or a test): the pods then get the indices as GPU ids.
 */
export async function findNodeGpus(extended: Readonly<Record<string, number>>, dataDir: string, logger: Logger, pollMs?: number): Promise<NodeGpus> {
  if (GPU_RESOURCE in extended) return { monitor: undefined, capacity: {}, ids: { ids: (indices) => indices.map(String) } };
  const monitor = await discoverGpus({ logger, tableFile: join(dataDir, 'gpus.json'), ...(pollMs ? { pollMs } : {}) });
  if (!monitor) return { monitor: undefined, capacity: {}, ids: undefined };
  return { monitor, capacity: { [GPU_RESOURCE]: monitor.count }, ids: { ids: (indices) => monitor.uuidsOf(indices) } };
}

export function nodeDevices(monitor: GpuMonitor): NodeDevices {
  const throttle = new AnnotationThrottle();
  return {
    report: () => ({
      capacity: { [GPU_RESOURCE]: monitor.count },
      allocatable: { [GPU_RESOURCE]: monitor.healthyCount() },
      conditions: [monitor.condition()],
    }),
    labels: () => monitor.labels(),
    annotationsDue: () => throttle.due(monitor),
    annotationsFailed: () => throttle.failed(),
  };
}

/** Which pod container holds GPU `index`, for the metrics' namespace/pod/container labels. */
export function gpuHolders(devices: DeviceAllocator, podOf: (uid: string) => Readonly<Pod> | undefined): (index: number) => GpuHolder | undefined {
  return (index) => {
    const uid = devices.holders(GPU_RESOURCE).get(index);
    const pod = uid === undefined ? undefined : podOf(uid);
    if (!pod || uid === undefined) return undefined;
    const set = { [GPU_RESOURCE]: devices.assignment(uid)?.[GPU_RESOURCE] ?? [] };
    const container = pod.spec.containers.find((c) => containerDevices(pod, set, c, false)[GPU_RESOURCE]?.includes(index));
    return { namespace: pod.metadata.namespace ?? 'default', pod: pod.metadata.name ?? '', container: container?.name ?? '' };
  };
}

/**
 * Starts polling, and reading the kernel log for Xid errors (the agent's one follower; Xids it
 * replays from before the start do not count): health changes reach the allocator and, at once,
 * the Node.
 */
export function startGpuMonitor(monitor: GpuMonitor, devices: DeviceAllocator, kernelLog: KernelLog, onChange: () => void): void {
  kernelLog.consume((messages, replayed) => {
    if (replayed) return;
    for (const error of messages.flatMap((m) => parseXid(m) ?? [])) monitor.markXid(error);
  });
  devices.setUnavailable(GPU_RESOURCE, monitor.unhealthyIndices());
  monitor.onHealthChange(() => {
    devices.setUnavailable(GPU_RESOURCE, monitor.unhealthyIndices());
    onChange();
  });
  monitor.start();
}

export function agentRegistry(monitor: GpuMonitor | undefined, hostname: string, holders: (index: number) => GpuHolder | undefined): Registry {
  return monitor ? gpuRegistry(monitor, hostname, holders) : new Registry();
}

// The port each replica listens on. On the pod network a replica has its own IP, so every one
// listens on the framework's port (Kubeflow's 23456 / 2222, or the template's named port). Pods
// that share the host's network (the process runtime, hostNetwork) share the node's ports: two
// replicas of a job on one node, or two jobs, would collide. Those replicas get ports of their
// own, a block per job starting at a base derived from the job's uid in an unprivileged range
// below Linux's ephemeral ports; the port is declared as containerPort and hostPort, so the
// scheduler's node-ports filter (and the process runtime) refuse a clash instead of letting a
// replica fail to bind.
import type { TrainingFramework } from '../../api/training-frameworks.js';
import { replicaSpecsOf, replicasOf } from './names.js';
import { isHostNetworkTemplate, type ReplicaSpec, type TrainingJob } from './types.js';

const RANGE_START = 10_000;
const RANGE_END = 32_768; // Linux's default ip_local_port_range starts here

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The port the template's framework container declares under the framework's port name. */
export function templatePort(framework: TrainingFramework, spec: Readonly<ReplicaSpec> | undefined): number | undefined {
  const container = spec?.template?.spec?.containers?.find((c) => c.name === framework.containerName);
  const ports = (container?.['ports'] ?? []) as Array<{ name?: string; containerPort?: number }>;
  return ports.find((p) => p.name === framework.portName)?.containerPort;
}

/** Listening replicas on the host network, in a stable order: their offsets in the job's block. */
function hostListeners(framework: TrainingFramework, job: Readonly<TrainingJob>): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const [type, spec] of replicaSpecsOf(framework, job)) {
    if (!framework.portedTypes.includes(type) || !isHostNetworkTemplate(spec.template)) continue;
    for (let i = 0; i < replicasOf(spec); i++) offsets.set(`${type}/${i}`, offsets.size);
  }
  return offsets;
}

/** The host port of a listening host-network replica; undefined for every other replica. */
export function hostPortOf(framework: TrainingFramework, job: Readonly<TrainingJob>, type: string, index: number): number | undefined {
  const offsets = hostListeners(framework, job);
  const offset = offsets.get(`${type}/${index}`);
  if (offset === undefined) return undefined;
  const span = RANGE_END - RANGE_START - offsets.size;
  return RANGE_START + (fnv1a(job.metadata.uid ?? job.metadata.name ?? '') % span) + offset;
}

/** The port a replica listens on (and its Service exposes). */
export function replicaPort(framework: TrainingFramework, job: Readonly<TrainingJob>, type: string, index: number): number {
  const specs = (job.spec[framework.replicaSpecsField] ?? {}) as Record<string, ReplicaSpec>;
  return hostPortOf(framework, job, type, index) ?? templatePort(framework, specs[type]) ?? framework.defaultPort;
}

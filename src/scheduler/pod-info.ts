// The scheduler's parsed view of a pod, built once per pod so that no stage re-reads the raw
// object per node: its requests, host ports and the sibling group it belongs to.
import type { KubeObject } from '../api/meta.js';
import { controllerRefOf } from '../api/owner-references.js';
import { list, record, stringMap, text, type Obj } from './object-access.js';
import { podRequests, type Resources } from './resources.js';

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface HostPort {
  readonly hostIP: string;
  readonly protocol: Protocol;
  readonly port: number;
}

export interface PodInfo {
  /** uid when the pod has one (a recreated pod of the same name is another pod), else namespace/name. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly pod: KubeObject;
  readonly spec: Obj;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** spec.nodeName: set for bound pods. */
  readonly nodeName: string | undefined;
  /** Succeeded or Failed: holds no resources any more. */
  readonly terminal: boolean;
  readonly requests: Resources;
  readonly nonZeroMilliCpu: number;
  readonly nonZeroMemory: number;
  readonly hostPorts: readonly HostPort[];
  /** Pods with the same key are siblings (replicas of one workload) for constraints and spreading. */
  readonly siblingKey: string;
}

export const ANY_IP = '0.0.0.0';

function protocolOf(value: unknown): Protocol {
  return value === 'UDP' || value === 'SCTP' ? value : 'TCP';
}

function hostPorts(spec: Obj): HostPort[] {
  const out: HostPort[] = [];
  for (const container of list(spec['containers'])) {
    for (const p of list(record(container)['ports'])) {
      const port = record(p);
      const hostPort = port['hostPort'];
      if (typeof hostPort !== 'number' || hostPort <= 0) continue;
      const hostIP = text(port['hostIP']) || ANY_IP;
      out.push({ hostIP, protocol: protocolOf(port['protocol']), port: hostPort });
    }
  }
  return out;
}

/**
 * The original scheduler's notion of an application: pods share a controller owner (the
 * ReplicaSet, Job, ... that made them) or, for bare pods, exactly the same labels.
 */
export function siblingKeyOf(meta: KubeObject['metadata']): string {
  const owner = controllerRefOf({ metadata: meta });
  if (owner !== undefined) return `owner:${owner.uid}`;
  const labels = meta.labels ?? {};
  const canonical = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k] ?? ''}`)
    .join(',');
  return `labels:${meta.namespace ?? ''}:${canonical}`;
}

export function isPodInfo(value: KubeObject | PodInfo): value is PodInfo {
  return typeof value.siblingKey === 'string' && value.pod !== undefined;
}

export function podKey(pod: KubeObject): string {
  const meta = pod.metadata;
  return meta.uid || `${meta.namespace ?? ''}/${meta.name ?? ''}`;
}

export function podInfoOf(pod: KubeObject): PodInfo {
  const meta = pod.metadata;
  const spec = record(pod['spec']);
  const phase = text(record(pod['status'])['phase']);
  const { requests, nonZeroMilliCpu, nonZeroMemory } = podRequests(spec);
  return {
    key: podKey(pod),
    namespace: meta.namespace ?? '',
    name: meta.name ?? '',
    pod,
    spec,
    labels: stringMap(meta.labels),
    annotations: stringMap(meta.annotations),
    nodeName: text(spec['nodeName']) || undefined,
    terminal: phase === 'Succeeded' || phase === 'Failed',
    requests,
    nonZeroMilliCpu,
    nonZeroMemory,
    hostPorts: hostPorts(spec),
    siblingKey: siblingKeyOf(meta),
  };
}

// Builders of Node and Pod objects for the scheduler's tests and benchmarks.
import type { KubeObject, OwnerReference } from '../../../src/api/meta.js';
import type { Node, Taint } from '../../../src/api/core/index.js';
import { pass, preFilterPassed, type Plugin } from '../../../src/scheduler/plugin.js';
import { isSuccess, messageOf } from '../../../src/scheduler/status.js';
import { podInfoOf } from '../../../src/scheduler/pod-info.js';
import { ClusterSnapshot } from '../../../src/scheduler/snapshot.js';

/** What a test node is: its name, allocatable figures, labels, taints and readiness. */
export interface NodeShape {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: number;
  ephemeralStorage?: string;
  extended?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  ready?: 'True' | 'False' | 'Unknown' | 'missing';
}

export function makeNode(spec: NodeShape): Node {
  const allocatable: Record<string, string> = {
    cpu: spec.cpu ?? '4',
    memory: spec.memory ?? '8Gi',
    pods: String(spec.pods ?? 110),
    'ephemeral-storage': spec.ephemeralStorage ?? '100Gi',
    ...spec.extended,
  };
  const conditions = spec.ready === 'missing' ? [] : [{ type: 'Ready', status: spec.ready ?? 'True' }];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: spec.name, labels: { 'kubernetes.io/hostname': spec.name, ...spec.labels } },
    spec: { ...(spec.taints ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
    status: { capacity: allocatable, allocatable, conditions },
  };
}

export interface ContainerSpec {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
  ports?: Array<{ containerPort: number; hostPort?: number; protocol?: string; hostIP?: string }>;
  restartPolicy?: 'Always';
}

export interface PodSpecInput {
  name: string;
  namespace?: string;
  uid?: string;
  cpu?: string;
  memory?: string;
  requests?: Record<string, string>;
  containers?: ContainerSpec[];
  initContainers?: ContainerSpec[];
  overhead?: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  owner?: string;
  nodeName?: string;
  phase?: string;
  spec?: Record<string, unknown>;
}

function container(name: string, c: ContainerSpec): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  if (c.requests) resources['requests'] = c.requests;
  if (c.limits) resources['limits'] = c.limits;
  return { name, image: 'busybox', resources, ...(c.ports ? { ports: c.ports } : {}), ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}) };
}

export function makePod(input: PodSpecInput): KubeObject {
  const requests: Record<string, string> = { ...input.requests };
  if (input.cpu) requests['cpu'] = input.cpu;
  if (input.memory) requests['memory'] = input.memory;
  const containers = input.containers ?? [{ requests }];
  const owner: OwnerReference[] | undefined = input.owner
    ? [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: input.owner, uid: `uid-${input.owner}`, controller: true }]
    : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: input.name,
      namespace: input.namespace ?? 'default',
      uid: input.uid ?? `uid-pod-${input.namespace ?? 'default'}-${input.name}`,
      labels: input.labels ?? {},
      annotations: input.annotations ?? {},
      ...(owner ? { ownerReferences: owner } : {}),
    },
    spec: {
      containers: containers.map((c, i) => container(`c${i}`, c)),
      ...(input.initContainers ? { initContainers: input.initContainers.map((c, i) => container(`init${i}`, c)) } : {}),
      ...(input.overhead ? { overhead: input.overhead } : {}),
      ...(input.nodeName ? { nodeName: input.nodeName } : {}),
      ...input.spec,
    },
    status: { phase: input.phase ?? 'Pending' },
  };
}

export function snapshotOf(nodes: KubeObject[], pods: KubeObject[] = []): ClusterSnapshot {
  const snapshot = new ClusterSnapshot();
  for (const node of nodes) snapshot.updateNode(node);
  for (const pod of pods) snapshot.addPod(pod);
  return snapshot;
}

/** A deterministic random source, so tie-breaks do not make tests flaky. */
export function seededRandom(seed = 1): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * One plugin's verdict on one node, as the framework would reach it: pre-filter, then filter
 * (unless skipped). 'ok' admits the node; a pre-filter rejection is returned as `prefilter: …`.
 */
export function verdictOf(plugin: Plugin, pod: KubeObject, nodeName: string, snapshot: ClusterSnapshot, now = Date.now()): string | readonly string[] {
  const info = podInfoOf(pod);
  const node = snapshot.getNode(nodeName);
  if (node === undefined) throw new Error(`no node ${nodeName}`);
  const pre = plugin.preFilter?.(info, { snapshot, now }) ?? pass(undefined);
  if (!preFilterPassed(pre)) return `prefilter: ${messageOf(pre.status)}`;
  if (pre.nodeNames !== undefined && !pre.nodeNames.has(nodeName)) return pre.excludedReason ?? 'excluded';
  if (pre.status.code === 'Skip' || plugin.filter === undefined) return 'ok';
  const status = plugin.filter(pre.state, info, node);
  if (isSuccess(status)) return 'ok';
  return status!.reasons.length === 1 ? status!.reasons[0]! : status!.reasons;
}

/** One plugin's normalized scores for the named nodes. */
export function scoresOf(plugin: Plugin, pod: KubeObject, nodeNames: string[], snapshot: ClusterSnapshot): number[] {
  const info = podInfoOf(pod);
  const pre = plugin.preFilter?.(info, { snapshot, now: Date.now() }) ?? pass(undefined);
  if (!preFilterPassed(pre)) throw new Error(messageOf(pre.status));
  const scores = new Float64Array(nodeNames.length);
  nodeNames.forEach((name, i) => {
    scores[i] = plugin.score!(pre.state, info, snapshot.getNode(name)!);
  });
  plugin.normalizeScore?.(pre.state, scores);
  return [...scores];
}

// One node as the scheduler sees it: the parsed Node object plus running totals of the pods
// bound (or assumed) to it, kept up to date incrementally so that filters and scores read
// plain numbers. The hot numbers live in the snapshot's NodeTable (see node-table.ts).
import type { KubeObject } from '../api/meta.js';
import type { Taint } from '../api/scheduling/taints.js';
import {
  ALLOC_EPHEMERAL,
  ALLOC_MEMORY,
  ALLOC_MILLI_CPU,
  ALLOC_PODS,
  NodeTable,
  NON_ZERO_MEMORY,
  NON_ZERO_MILLI_CPU,
  POD_COUNT,
  REQ_EPHEMERAL,
  REQ_MEMORY,
  REQ_MILLI_CPU,
} from './node-table.js';
import { list, record, stringMap, text, type Obj } from './object-access.js';
import { ANY_IP, type HostPort, type PodInfo } from './pod-info.js';
import { resourceList, toResources, type Resources } from './resources.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A node's taint as the scheduler keeps it: value read (empty when absent), effect known. */
export type NodeTaint = Readonly<Required<Pick<Taint, 'key' | 'value' | 'effect'>>>;

export interface Allocatable extends Resources {
  pods: number;
}

// Shared by untainted nodes, so the taint checks of most nodes touch no node-specific memory.
const NO_TAINTS: readonly NodeTaint[] = Object.freeze([]);

function parseTaints(spec: Obj): readonly NodeTaint[] {
  const out: NodeTaint[] = [];
  for (const item of list(spec['taints'])) {
    const t = record(item);
    const effect = t['effect'];
    if (effect !== 'NoSchedule' && effect !== 'PreferNoSchedule' && effect !== 'NoExecute') continue;
    out.push({ key: text(t['key']) ?? '', value: text(t['value']) ?? '', effect });
  }
  return out.length === 0 ? NO_TAINTS : out;
}

function readyStatus(status: Obj): ConditionStatus {
  for (const item of list(status['conditions'])) {
    const c = record(item);
    if (c['type'] !== 'Ready') continue;
    const s = c['status'];
    return s === 'True' || s === 'False' ? s : 'Unknown';
  }
  // A node that never reported is as good as unreachable.
  return 'Unknown';
}

function portKey(protocol: string, port: number): string {
  return `${protocol}/${port}`;
}

function addScalars(into: Map<string, number> | undefined, from: ReadonlyMap<string, number>, sign: 1 | -1): Map<string, number> {
  const out = into ?? new Map<string, number>();
  for (const [name, amount] of from) out.set(name, (out.get(name) ?? 0) + sign * amount);
  return out;
}

export class NodeInfo {
  node: KubeObject | undefined;
  labels: Readonly<Record<string, string>> = {};
  taints: readonly NodeTaint[] = NO_TAINTS;
  unschedulable = false;
  ready: ConditionStatus = 'Unknown';
  /** Extended resources the node offers and the pods on it hold; undefined when none. */
  allocatableScalar: Map<string, number> | undefined;
  requestedScalar: Map<string, number> | undefined;
  readonly pods = new Map<string, PodInfo>();
  /** protocol/port → host IP → number of pods holding it. */
  readonly usedPorts = new Map<string, Map<string, number>>();
  /** Offset of this node's numbers in `table.data`. */
  readonly base: number;

  constructor(
    readonly name: string,
    readonly table: NodeTable = new NodeTable(),
  ) {
    this.base = table.allocate();
  }

  get allocMilliCpu(): number {
    return this.table.data[this.base + ALLOC_MILLI_CPU]!;
  }
  get allocMemory(): number {
    return this.table.data[this.base + ALLOC_MEMORY]!;
  }
  get allocEphemeralStorage(): number {
    return this.table.data[this.base + ALLOC_EPHEMERAL]!;
  }
  get allocPods(): number {
    return this.table.data[this.base + ALLOC_PODS]!;
  }
  get reqMilliCpu(): number {
    return this.table.data[this.base + REQ_MILLI_CPU]!;
  }
  get reqMemory(): number {
    return this.table.data[this.base + REQ_MEMORY]!;
  }
  get reqEphemeralStorage(): number {
    return this.table.data[this.base + REQ_EPHEMERAL]!;
  }
  get podCount(): number {
    return this.table.data[this.base + POD_COUNT]!;
  }
  /** Requests with kube-scheduler's defaults for containers without any (scoring only). */
  get nonZeroMilliCpu(): number {
    return this.table.data[this.base + NON_ZERO_MILLI_CPU]!;
  }
  get nonZeroMemory(): number {
    return this.table.data[this.base + NON_ZERO_MEMORY]!;
  }

  /** A copy of what the node offers, for inspection; filters read the getters above. */
  get allocatable(): Allocatable {
    return {
      milliCpu: this.allocMilliCpu,
      memory: this.allocMemory,
      ephemeralStorage: this.allocEphemeralStorage,
      scalar: this.allocatableScalar,
      pods: this.allocPods,
    };
  }

  /** A copy of the summed filtering requests of the pods on this node. */
  get requested(): Resources {
    return { milliCpu: this.reqMilliCpu, memory: this.reqMemory, ephemeralStorage: this.reqEphemeralStorage, scalar: this.requestedScalar };
  }

  setNode(node: KubeObject): void {
    const spec = record(node['spec']);
    const status = record(node['status']);
    this.node = node;
    this.labels = stringMap(node.metadata.labels);
    this.taints = parseTaints(spec);
    this.unschedulable = spec['unschedulable'] === true;
    this.ready = readyStatus(status);
    // Allocatable is what pods may use; a node that only reports capacity offers all of it.
    const amounts = resourceList(status['capacity']);
    for (const [name, amount] of resourceList(status['allocatable'])) amounts.set(name, amount);
    const offered = toResources(amounts);
    const d = this.table.data;
    d[this.base + ALLOC_MILLI_CPU] = offered.milliCpu;
    d[this.base + ALLOC_MEMORY] = offered.memory;
    d[this.base + ALLOC_EPHEMERAL] = offered.ephemeralStorage;
    d[this.base + ALLOC_PODS] = amounts.get('pods') ?? 0;
    this.allocatableScalar = offered.scalar;
  }

  addPod(pod: PodInfo): void {
    this.pods.set(pod.key, pod);
    this.account(pod, 1);
  }

  removePod(pod: PodInfo): void {
    if (this.pods.delete(pod.key)) this.account(pod, -1);
  }

  /** True when one of these ports is already held on this node (same protocol and port, overlapping IP). */
  portsConflict(wanted: readonly HostPort[]): boolean {
    for (const p of wanted) {
      const holders = this.usedPorts.get(portKey(p.protocol, p.port));
      if (holders === undefined) continue;
      // 0.0.0.0 binds every address, so it collides with any holder and any holder with it.
      if (p.hostIP === ANY_IP || holders.has(ANY_IP) || holders.has(p.hostIP)) return true;
    }
    return false;
  }

  /** Give the table slot back; the info must not be used afterwards. */
  release(): void {
    this.table.release(this.base);
  }

  private account(pod: PodInfo, sign: 1 | -1): void {
    const r = pod.requests;
    this.bump(REQ_MILLI_CPU, sign * r.milliCpu);
    this.bump(REQ_MEMORY, sign * r.memory);
    this.bump(REQ_EPHEMERAL, sign * r.ephemeralStorage);
    this.bump(POD_COUNT, sign);
    this.bump(NON_ZERO_MILLI_CPU, sign * pod.nonZeroMilliCpu);
    this.bump(NON_ZERO_MEMORY, sign * pod.nonZeroMemory);
    if (r.scalar !== undefined) this.requestedScalar = addScalars(this.requestedScalar, r.scalar, sign);
    for (const p of pod.hostPorts) this.countPort(p, sign);
  }

  private bump(field: number, delta: number): void {
    const d = this.table.data;
    d[this.base + field] = d[this.base + field]! + delta;
  }

  private countPort(p: HostPort, sign: 1 | -1): void {
    const key = portKey(p.protocol, p.port);
    let holders = this.usedPorts.get(key);
    if (holders === undefined) this.usedPorts.set(key, (holders = new Map()));
    const count = (holders.get(p.hostIP) ?? 0) + sign;
    if (count > 0) holders.set(p.hostIP, count);
    else holders.delete(p.hostIP);
    if (holders.size === 0) this.usedPorts.delete(key);
  }
}

// What a gang needs against what the cluster has, on a scratch view of the snapshot: the
// aggregate check (sums per resource) and a first-fit trial placement of every member, both
// before anything is reserved, so that a group is only admitted when it can be placed whole.
// Resource-only on purpose: the real placement that follows runs every filter.
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import type { ClusterSnapshot } from '../snapshot.js';

/** Resource name → amount in scheduler units (cpu in millicores). */
export type Amounts = Map<string, number>;

export interface Shortfall {
  readonly resource: string;
  readonly needed: number;
  readonly available: number;
}

function add(into: Amounts, name: string, amount: number): void {
  if (amount !== 0) into.set(name, (into.get(name) ?? 0) + amount);
}

/** A pod's requests as amounts, the pod slot included. */
export function requestAmounts(pod: PodInfo): Amounts {
  const r = pod.requests;
  const out: Amounts = new Map([['pods', 1]]);
  add(out, 'cpu', r.milliCpu);
  add(out, 'memory', r.memory);
  add(out, 'ephemeral-storage', r.ephemeralStorage);
  if (r.scalar !== undefined) for (const [name, amount] of r.scalar) add(out, name, amount);
  return out;
}

export function sumAmounts(list: readonly Amounts[]): Amounts {
  const out: Amounts = new Map();
  for (const amounts of list) for (const [name, amount] of amounts) add(out, name, amount);
  return out;
}

/** Nodes a gang may count on: cordoned and not-Ready nodes take no new pods. */
export function usable(node: NodeInfo): boolean {
  return !node.unschedulable && node.ready === 'True';
}

export function nodeAllocatable(node: NodeInfo): Amounts {
  const out: Amounts = new Map();
  add(out, 'pods', node.allocPods);
  add(out, 'cpu', node.allocMilliCpu);
  add(out, 'memory', node.allocMemory);
  add(out, 'ephemeral-storage', node.allocEphemeralStorage);
  if (node.allocatableScalar !== undefined) for (const [name, amount] of node.allocatableScalar) add(out, name, amount);
  return out;
}

/** Allocatable minus what bound and reserved (assumed) pods hold. */
export function nodeFree(node: NodeInfo): Amounts {
  const out = nodeAllocatable(node);
  add(out, 'pods', -node.podCount);
  add(out, 'cpu', -node.reqMilliCpu);
  add(out, 'memory', -node.reqMemory);
  add(out, 'ephemeral-storage', -node.reqEphemeralStorage);
  if (node.requestedScalar !== undefined) for (const [name, amount] of node.requestedScalar) add(out, name, -amount);
  return out;
}

export interface ClusterCapacity {
  readonly allocatable: Amounts;
  readonly free: Amounts;
  /** Free amounts per usable node, in snapshot order: the scratch view a trial placement consumes. */
  readonly nodes: Amounts[];
}

export function clusterCapacity(snapshot: ClusterSnapshot): ClusterCapacity {
  const allocatable: Amounts = new Map();
  const free: Amounts = new Map();
  const nodes: Amounts[] = [];
  for (const node of snapshot.nodes) {
    if (!usable(node)) continue;
    for (const [name, amount] of nodeAllocatable(node)) add(allocatable, name, amount);
    const nodeFreeAmounts = nodeFree(node);
    for (const [name, amount] of nodeFreeAmounts) add(free, name, amount);
    nodes.push(nodeFreeAmounts);
  }
  return { allocatable, free, nodes };
}

/** The first resource `needed` asks more of than `available` offers (undefined: it fits). */
export function shortfall(needed: ReadonlyMap<string, number>, available: ReadonlyMap<string, number>): Shortfall | undefined {
  for (const [resource, amount] of needed) {
    const have = available.get(resource) ?? 0;
    if (amount > have) return { resource, needed: amount, available: have };
  }
  return undefined;
}

function fits(wanted: Amounts, free: Amounts): boolean {
  for (const [name, amount] of wanted) if (amount > (free.get(name) ?? 0)) return false;
  return true;
}

function take(wanted: Amounts, free: Amounts): void {
  for (const [name, amount] of wanted) free.set(name, (free.get(name) ?? 0) - amount);
}

/** The share of the scarcest resource a pod asks for: first-fit decreasing places big pods first. */
function dominantShare(wanted: Amounts, total: Amounts): number {
  let share = 0;
  for (const [name, amount] of wanted) share = Math.max(share, amount / Math.max(1, total.get(name) ?? 0));
  return share;
}

/**
 * First-fit decreasing of the members on the free amounts of `capacity.nodes`, consumed in
 * place (the caller passes a scratch copy). Returns how many members found a place.
 */
export function firstFit(members: readonly Amounts[], capacity: ClusterCapacity): number {
  const order = [...members].sort((a, b) => dominantShare(b, capacity.allocatable) - dominantShare(a, capacity.allocatable));
  let placed = 0;
  for (const wanted of order) {
    const node = capacity.nodes.find((free) => fits(wanted, free));
    if (node === undefined) continue;
    take(wanted, node);
    placed++;
  }
  return placed;
}

/** A member that no usable node could take even if it were empty, or undefined. */
export function fitsNoEmptyNode(member: Amounts, snapshot: ClusterSnapshot): boolean {
  for (const node of snapshot.nodes) if (usable(node) && fits(member, nodeAllocatable(node))) return false;
  return true;
}

/** `example.com/gpu 12`, `cpu 1.5`, `memory 2048Mi`: amounts as a person reads them. */
export function formatAmount(resource: string, amount: number): string {
  return `${resource} ${amountText(resource, amount)}`;
}

export function amountText(resource: string, amount: number): string {
  if (resource === 'cpu') return String(Number((amount / 1000).toFixed(3)));
  if (resource === 'memory' || resource === 'ephemeral-storage') return `${Math.ceil(amount / 2 ** 20)}Mi`;
  return String(amount);
}

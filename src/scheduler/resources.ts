// Resource vectors and Kubernetes' rules for what a pod requests. Quantities are parsed once,
// when a pod or node enters the snapshot, into integers: CPU in millicores, everything else in
// its base unit (bytes, devices), rounded up as resource.Quantity's MilliValue/Value do.
import { parseQuantity } from '../api/validation/quantity.js';
import { list, record, text, type Obj } from './object-access.js';

export interface Resources {
  milliCpu: number;
  memory: number;
  ephemeralStorage: number;
  /** Extended and other scalar resources (`example.com/gpu`, `hugepages-2Mi`); absent when none. */
  scalar: Map<string, number> | undefined;
}

export interface PodRequests {
  /** What the pod needs for filtering: a container without requests asks for nothing. */
  readonly requests: Resources;
  /** For scoring only: kube-scheduler counts a container without a cpu/memory request as 100m/200Mi. */
  readonly nonZeroMilliCpu: number;
  readonly nonZeroMemory: number;
}

export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

// Float noise from "0.3" * 1000 must not round 300 up to 301.
const EPSILON = 1e-6;

export function emptyResources(): Resources {
  return { milliCpu: 0, memory: 0, ephemeralStorage: 0, scalar: undefined };
}

/** Amount of one named resource in scheduler units, or undefined when the quantity is malformed. */
export function resourceAmount(name: string, quantity: unknown): number | undefined {
  const value = parseQuantity(quantity);
  if (value === undefined) return undefined;
  return name === 'cpu' ? Math.ceil(value * 1000 - EPSILON) : Math.ceil(value - EPSILON);
}

/** A ResourceList (`{cpu: "500m", memory: "1Gi"}`) as a map of scheduler units. */
export function resourceList(value: unknown): Map<string, number> {
  const source = record(value);
  const out = new Map<string, number>();
  for (const name in source) {
    const amount = resourceAmount(name, source[name]);
    if (amount !== undefined) out.set(name, amount);
  }
  return out;
}

export function toResources(amounts: ReadonlyMap<string, number>): Resources {
  const out = emptyResources();
  for (const [name, amount] of amounts) {
    if (name === 'cpu') out.milliCpu = amount;
    else if (name === 'memory') out.memory = amount;
    else if (name === 'ephemeral-storage') out.ephemeralStorage = amount;
    else if (name !== 'pods') (out.scalar ??= new Map()).set(name, amount);
  }
  return out;
}

function add(into: Map<string, number>, from: ReadonlyMap<string, number>): void {
  for (const [name, amount] of from) into.set(name, (into.get(name) ?? 0) + amount);
}

function maxInto(into: Map<string, number>, from: ReadonlyMap<string, number>): void {
  for (const [name, amount] of from) if (amount > (into.get(name) ?? 0)) into.set(name, amount);
}

function containerRequests(container: unknown, nonZero: boolean): Map<string, number> {
  const resources = record(record(container)['resources']);
  const requests = resourceList(resources['requests']);
  // The API defaults requests from limits; objects that skipped defaulting get the same answer.
  for (const [name, amount] of resourceList(resources['limits'])) if (!requests.has(name)) requests.set(name, amount);
  if (nonZero) {
    if (!requests.get('cpu')) requests.set('cpu', DEFAULT_MILLI_CPU_REQUEST);
    if (!requests.get('memory')) requests.set('memory', DEFAULT_MEMORY_REQUEST);
  }
  return requests;
}

/**
 * Kubernetes' pod request: max(sum(containers) + sidecars, max over init containers of
 * (that init container + the sidecars started before it)) + overhead. Sidecars are init
 * containers with `restartPolicy: Always`; they keep running beside the app containers.
 */
function podAmounts(spec: Obj, nonZero: boolean): Map<string, number> {
  const total = new Map<string, number>();
  for (const c of list(spec['containers'])) add(total, containerRequests(c, nonZero));
  const sidecars = new Map<string, number>();
  const initPeak = new Map<string, number>();
  for (const c of list(spec['initContainers'])) {
    const requests = containerRequests(c, nonZero);
    if (text(record(c)['restartPolicy']) === 'Always') {
      add(sidecars, requests);
      maxInto(initPeak, sidecars);
    } else {
      const during = new Map(sidecars);
      add(during, requests);
      maxInto(initPeak, during);
    }
  }
  add(total, sidecars);
  maxInto(total, initPeak);
  add(total, resourceList(spec['overhead']));
  return total;
}

export function podRequests(spec: Obj): PodRequests {
  const requests = toResources(podAmounts(spec, false));
  const nonZero = podAmounts(spec, true);
  return {
    requests,
    nonZeroMilliCpu: nonZero.get('cpu') ?? 0,
    nonZeroMemory: nonZero.get('memory') ?? 0,
  };
}

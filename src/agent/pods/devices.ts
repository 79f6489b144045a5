// Extended resources (e.g. example.com/gpu: 2) as numbered devices. A pod is given device
// indices when it first starts, disjoint from every other pod's, and keeps them until it goes.
// Its app containers get disjoint slices; its init containers, which run before them, reuse
// the first indices (as the device manager does), so a pod holds max(init, sum of app).
// Assignments are written to a file in the data directory, so an agent restart keeps them.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseQuantity } from '../../api/validation/quantity.js';
import type { Container, Pod } from '../../api/core/index.js';

export type DeviceSet = Record<string, number[]>;

export class InsufficientDevicesError extends Error {
  readonly reason = 'UnexpectedAdmissionError';
}

export const DEVICE_ENV = 'DROVER_VISIBLE_DEVICES';
export const GPU_RESOURCE = 'nvidia.com/gpu';

/** Device ids (GPU UUIDs) of allocator indices; without one, the indices themselves are the ids. */
export type DeviceIds = (indices: readonly number[]) => string[];

/** How many of each extended resource a container asks for (a limit, else a request). */
export function containerNeeds(container: Container, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) {
    const raw = container.resources?.limits?.[name] ?? container.resources?.requests?.[name];
    const count = Math.ceil(parseQuantity(raw ?? 0) ?? 0);
    if (count > 0) out[name] = count;
  }
  return out;
}

export function podNeeds(pod: Pod, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) {
    const app = pod.spec.containers.reduce((sum, c) => sum + (containerNeeds(c, [name])[name] ?? 0), 0);
    const init = Math.max(0, ...(pod.spec.initContainers ?? []).map((c) => containerNeeds(c, [name])[name] ?? 0));
    const need = Math.max(app, init);
    if (need > 0) out[name] = need;
  }
  return out;
}

/** The indices a container sees, from its pod's set. */
export function containerDevices(pod: Pod, podSet: DeviceSet, container: Container, isInit: boolean): DeviceSet {
  const out: DeviceSet = {};
  for (const [name, indices] of Object.entries(podSet)) {
    const want = containerNeeds(container, [name])[name] ?? 0;
    if (want === 0) continue;
    let offset = 0;
    if (!isInit) {
      for (const c of pod.spec.containers) {
        if (c.name === container.name) break;
        offset += containerNeeds(c, [name])[name] ?? 0;
      }
    }
    out[name] = indices.slice(offset, offset + want);
  }
  return out;
}

/**
 * DROVER_VISIBLE_DEVICES_<RESOURCE> per resource (allocator indices), and DROVER_VISIBLE_DEVICES
 * when there is one. On a node with nvidia.com/gpu, every container also gets CUDA_VISIBLE_DEVICES
 * and NVIDIA_VISIBLE_DEVICES: its GPUs' UUIDs, or none at all ('' and 'void', the NVIDIA
 * container toolkit's "no GPU") when it asked for none — a host process or a CUDA image
 * (which sets NVIDIA_VISIBLE_DEVICES=all) would otherwise see every GPU of the node.
 */
export function deviceEnv(devices: DeviceSet, gpu?: { ids: DeviceIds }): Record<string, string> {
  const env: Record<string, string> = {};
  const names = Object.keys(devices).sort();
  for (const name of names) env[`${DEVICE_ENV}_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] = devices[name]!.join(',');
  if (names.length === 1) env[DEVICE_ENV] = devices[names[0]!]!.join(',');
  if (gpu) {
    const ids = gpu.ids(devices[GPU_RESOURCE] ?? []);
    env['CUDA_VISIBLE_DEVICES'] = ids.join(',');
    env['NVIDIA_VISIBLE_DEVICES'] = ids.length > 0 ? ids.join(',') : 'void';
  }
  return env;
}

export class DeviceAllocator {
  private assigned = new Map<string, DeviceSet>();
  /** Devices that are not handed out now (unhealthy GPUs); pods holding one keep it. */
  private unavailable = new Map<string, ReadonlySet<number>>();

  constructor(
    private readonly capacity: Readonly<Record<string, number>>,
    private readonly file: string,
  ) {}

  load(): void {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, DeviceSet>;
      this.assigned = new Map(Object.entries(saved));
    } catch {
      this.assigned = new Map();
    }
  }

  get names(): string[] {
    return Object.keys(this.capacity);
  }

  has(uid: string): boolean {
    return this.assigned.has(uid);
  }

  assignment(uid: string): DeviceSet | undefined {
    return this.assigned.get(uid);
  }

  setUnavailable(name: string, indices: readonly number[]): void {
    this.unavailable.set(name, new Set(indices));
  }

  /** The pod holding each device index of `name`. */
  holders(name: string): Map<number, string> {
    const out = new Map<number, string>();
    for (const [uid, set] of this.assigned) for (const i of set[name] ?? []) out.set(i, uid);
    return out;
  }

  /** The pod's devices, assigning them on first call; throws when too few are free. */
  allocate(uid: string, pod: Pod): DeviceSet {
    const existing = this.assigned.get(uid);
    if (existing) return existing;
    const needs = podNeeds(pod, this.names);
    const set: DeviceSet = {};
    for (const [name, need] of Object.entries(needs)) {
      const free = this.free(name);
      if (free.length < need) {
        throw new InsufficientDevicesError(
          `Allocate failed due to requested number of devices unavailable for ${name}. Requested: ${need}, Available: ${free.length}`,
        );
      }
      set[name] = free.slice(0, need);
    }
    if (Object.keys(set).length > 0) {
      this.assigned.set(uid, set);
      this.save();
    }
    return set;
  }

  release(uid: string): void {
    if (this.assigned.delete(uid)) this.save();
  }

  /** Keeps only the given pods' assignments (after a restart, for pods still bound here). */
  retain(uids: ReadonlySet<string>): void {
    let changed = false;
    for (const uid of [...this.assigned.keys()]) {
      if (!uids.has(uid)) changed = this.assigned.delete(uid) || changed;
    }
    if (changed) this.save();
  }

  private free(name: string): number[] {
    const used = new Set([...this.assigned.values()].flatMap((set) => set[name] ?? []));
    for (const i of this.unavailable.get(name) ?? []) used.add(i);
    const total = this.capacity[name] ?? 0;
    return Array.from({ length: total }, (_, i) => i).filter((i) => !used.has(i));
  }

  private save(): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.assigned)));
    renameSync(tmp, this.file);
  }
}

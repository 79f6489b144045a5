// The node's NVIDIA GPUs: found once at start through nvidia-smi on the agent's PATH, then
// polled (every 30 s by default) for health and metrics.
//
// Device index i of the agent's allocator (DROVER_VISIBLE_DEVICES) is the i-th GPU of the
// first discovery, in nvidia-smi index order. That table is saved beside the allocator's
// assignments (gpus.json in the data directory) and kept across restarts, so an index names the
// same UUID even when a GPU has dropped out and nvidia-smi renumbers the rest: a GPU of the table
// that is missing counts as unhealthy, a new one is appended. (After replacing GPUs for good,
// remove gpus.json with no GPU pods on the node.) Pods are given UUIDs, never nvidia-smi indices.
// GPUs that appear while the agent runs are logged and used after its next start.
//
// Health, from two sources. Each poll of `nvidia-smi --query-gpu` shows the states serious
// faults leave a GPU in: a GPU that has fallen off the bus is missing from the output, and a GPU
// that needs a reset or was lost answers its fields with NVML's error in brackets. Such a GPU is
// healthy again as soon as a poll sees it answering normally. And the driver's Xid errors, which
// `--query-gpu` has no field for, come from the kernel log (xid.ts; node-gpus.ts wires the
// follower): an Xid that calls for a GPU reset marks the GPU, found by its PCI address, unhealthy
// until the agent restarts, since a GPU that still answers nvidia-smi after such an Xid is not
// fit for work until it has been reset. Xids logged before the agent started (the kernel's
// replay) are not counted: restarting the agent after the reset is how a GPU comes back.
// Unhealthy GPUs are out of allocatable and named in the Node's GPUUnhealthy condition.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Logger } from '../../client/index.js';
import { startLoop, type Loop } from '../util/loop.js';
import { isFatalXid, type XidError } from './xid.js';
import { INVENTORY_FIELDS, SAMPLE_FIELDS, findOnPath, parseInventory, parseSamples, queryGpus, type GpuInfo, type GpuSample } from './nvidia-smi.js';

export const GPU_CONDITION = 'GPUUnhealthy';
export const DEFAULT_GPU_POLL_MS = 30_000;

export interface GpuCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface GpuMonitorOptions {
  /** The nvidia-smi to run (found on the agent's PATH by discoverGpus). */
  bin: string;
  pollMs?: number;
  logger: Logger;
}

export class GpuMonitor {
  private samples = new Map<string, GpuSample>();
  private unhealthy = new Map<string, string>();
  /** GPUs a fatal Xid took out, by UUID: the condition's text for each; kept until the agent restarts. */
  private readonly xids = new Map<string, string>();
  private loop: Loop | undefined;
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly opts: GpuMonitorOptions,
    readonly gpus: readonly GpuInfo[],
  ) {}

  get count(): number {
    return this.gpus.length;
  }

  /** GPU feature discovery's labels (product with spaces as '-', memory in MiB, count). */
  labels(): Record<string, string> {
    const first = this.gpus[0];
    if (!first) return {};
    return {
      'nvidia.com/gpu.product': first.name.replace(/\s+/g, '-'),
      'nvidia.com/gpu.memory': String(first.memoryMiB),
      'nvidia.com/gpu.count': String(this.gpus.length),
    };
  }

  healthyCount(): number {
    return this.gpus.length - this.unhealthyIndices().length;
  }

  /** Allocator indices of the GPUs that are unhealthy now. */
  unhealthyIndices(): number[] {
    return this.gpus.flatMap((g, i) => (this.unhealthy.has(g.uuid) ? [i] : []));
  }

  uuidsOf(indices: readonly number[]): string[] {
    return indices.map((i) => this.gpus[i]?.uuid ?? String(i));
  }

  sample(uuid: string): GpuSample | undefined {
    return this.samples.get(uuid);
  }

  healthOf(uuid: string): string | undefined {
    return this.unhealthy.get(uuid);
  }

  condition(): GpuCondition {
    if (this.unhealthy.size === 0) return { type: GPU_CONDITION, status: 'False', reason: 'GPUsHealthy', message: `all ${this.gpus.length} GPUs are healthy` };
    const list = [...this.unhealthy].map(([uuid, why]) => (this.xids.has(uuid) ? `${uuid} ${why}` : `${uuid} (${why})`)).join(', ');
    return { type: GPU_CONDITION, status: 'True', reason: 'GPUUnhealthy', message: `unhealthy GPUs, not allocatable: ${list}` };
  }

  /** Called after every poll that changed which GPUs are healthy. */
  onHealthChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * An Xid error from the kernel log. A fatal one for a GPU of this node takes that GPU out (and
   * tells the listeners); others change nothing. True when it took a GPU out.
   */
  markXid(error: XidError): boolean {
    const gpu = this.gpus.find((g) => g.busId === error.busId);
    if (!gpu || !isFatalXid(error.xid) || this.xids.has(gpu.uuid)) return false;
    const why = `(PCI ${error.busId}): Xid ${error.xid} ${error.text}; unhealthy until the GPU is reset and the agent restarted`;
    this.xids.set(gpu.uuid, why);
    this.unhealthy.set(gpu.uuid, why);
    this.opts.logger.warn('GPU health changed: Xid error', { uuid: gpu.uuid, busId: error.busId, xid: error.xid, text: error.text });
    for (const l of this.listeners) l();
    return true;
  }

  /** One poll: samples and health. True when the set of unhealthy GPUs changed. */
  async poll(): Promise<boolean> {
    const before = [...this.unhealthy.keys()].sort().join(',');
    let samples: GpuSample[];
    try {
      samples = parseSamples(await queryGpus(this.opts.bin, SAMPLE_FIELDS));
    } catch (error) {
      // A driver that does not answer at all leaves no GPU usable.
      samples = [];
      this.opts.logger.warn('nvidia-smi failed; every GPU counts as unhealthy', { error });
    }
    const byUuid = new Map(samples.map((s) => [s.uuid, s]));
    this.samples = byUuid;
    // An Xid's mark outlasts polls, and names the cause better than the GPU's absence does.
    this.unhealthy = new Map(this.xids);
    for (const gpu of this.gpus) {
      const s = byUuid.get(gpu.uuid);
      if (this.xids.has(gpu.uuid)) continue;
      if (!s) this.unhealthy.set(gpu.uuid, 'not reported by nvidia-smi');
      else if (s.fault) this.unhealthy.set(gpu.uuid, s.fault);
    }
    const known = new Set(this.gpus.map((g) => g.uuid));
    const added = samples.filter((s) => !known.has(s.uuid)).map((s) => s.uuid);
    if (added.length > 0) this.opts.logger.info('GPUs appeared after the start; they are used after an agent restart', { added });
    const changed = [...this.unhealthy.keys()].sort().join(',') !== before;
    if (changed) this.opts.logger.warn('GPU health changed', { unhealthy: Object.fromEntries(this.unhealthy) });
    return changed;
  }

  start(): void {
    this.loop = startLoop(
      'gpu poll',
      this.opts.pollMs ?? DEFAULT_GPU_POLL_MS,
      async () => {
        if (await this.poll()) for (const l of this.listeners) l();
      },
      this.opts.logger,
    );
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = undefined;
  }
}

/**
 * The saved table, then the GPUs it does not have yet (by UUID), in nvidia-smi order. A saved GPU
 * found again takes the PCI address read now (tables saved before it was read have none).
 */
export function mergeTable(saved: readonly GpuInfo[], found: readonly GpuInfo[]): GpuInfo[] {
  const now = new Map(found.map((g) => [g.uuid, g]));
  const refreshed = saved.map((g) => {
    const busId = now.get(g.uuid)?.busId ?? g.busId;
    return busId ? { ...g, busId } : g;
  });
  return [...refreshed, ...found.filter((g) => !saved.some((s) => s.uuid === g.uuid))];
}

function loadTable(file: string | undefined): GpuInfo[] {
  if (!file) return [];
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as GpuInfo[];
  } catch {
    return [];
  }
}

function saveTable(file: string | undefined, table: readonly GpuInfo[]): void {
  if (!file) return;
  writeFileSync(`${file}.tmp`, JSON.stringify(table));
  renameSync(`${file}.tmp`, file);
}

export interface DiscoverOptions {
  pollMs?: number;
  logger: Logger;
  /** Where to look for nvidia-smi (default: the agent's PATH). */
  path?: string;
  /** The saved index-to-UUID table (gpus.json in the data directory). */
  tableFile?: string;
}

/** The GPUs nvidia-smi on the agent's PATH reports; undefined when there is none or it finds none. */
export async function discoverGpus(options: DiscoverOptions): Promise<GpuMonitor | undefined> {
  const bin = findOnPath('nvidia-smi', options.path);
  if (!bin) return undefined;
  let found: GpuInfo[];
  try {
    found = parseInventory(await queryGpus(bin, INVENTORY_FIELDS));
  } catch (error) {
    options.logger.warn('nvidia-smi is on the PATH but did not list GPUs', { error });
    found = [];
  }
  const gpus = mergeTable(loadTable(options.tableFile), found);
  if (gpus.length === 0) return undefined;
  saveTable(options.tableFile, gpus);
  options.logger.info(`found ${found.length} NVIDIA GPUs (${gpus.length} known)`, { gpus: gpus.map((g) => `${g.uuid} ${g.name}`) });
  const monitor = new GpuMonitor({ bin, logger: options.logger, ...(options.pollMs ? { pollMs: options.pollMs } : {}) }, gpus);
  await monitor.poll();
  return monitor;
}

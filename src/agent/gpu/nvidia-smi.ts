// Reading NVIDIA GPUs through `nvidia-smi --query-gpu=... --format=csv,noheader,nounits`, the
// scripting interface NVIDIA documents: one line per GPU, the asked fields in the asked order
// separated by ", ", numbers without units (MiB, %, degrees C, W). A field the GPU does not
// support reads "[N/A]" or "[Not Supported]"; a field NVML could not read for a GPU in trouble
// reads as NVML's error in brackets ("[GPU is lost]", "[GPU requires reset]", "[Unknown Error]").
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { normaliseBusId } from './xid.js';

/**
 * What discovery reads once: the GPUs, what the Node's labels say of them, and the PCI address
 * by which the driver's Xid errors in the kernel log name a GPU (xid.ts).
 */
export const INVENTORY_FIELDS = ['index', 'uuid', 'name', 'memory.total', 'pci.bus_id'] as const;
/** What every poll reads: health (is the GPU there and answering) and the DCGM-style metrics. */
export const SAMPLE_FIELDS = ['index', 'uuid', 'utilization.gpu', 'memory.used', 'memory.total', 'temperature.gpu', 'power.draw'] as const;

const QUERY_TIMEOUT_MS = 10_000;

export interface GpuInfo {
  /** nvidia-smi's index (PCI bus order) at discovery. */
  index: number;
  uuid: string;
  name: string;
  memoryMiB: number;
  /** normaliseBusId of nvidia-smi's pci.bus_id ("00000000:3B:00.0" -> "0000:3b:00"); absent in tables saved before it was read. */
  busId?: string;
}

export interface GpuSample {
  index: number;
  uuid: string;
  /** Absent when the GPU reports the field as not available. */
  utilizationPercent?: number;
  memoryUsedMiB?: number;
  memoryTotalMiB?: number;
  temperatureC?: number;
  powerW?: number;
  /** NVML's error for this GPU (a bracketed value other than N/A), when it reported one. */
  fault?: string;
}

/** "[N/A]"-style values that only mean "this GPU has no such sensor". */
const NOT_AVAILABLE = new Set(['[N/A]', '[Not Supported]', '[Not Available]', '[Insufficient Permissions]']);

export function isFault(value: string): boolean {
  return value.startsWith('[') && !NOT_AVAILABLE.has(value);
}

function rows(text: string): string[][] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => l.split(',').map((f) => f.trim()));
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value.startsWith('[')) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** GPUs of an INVENTORY_FIELDS query; lines that do not parse (a GPU in error) are left out. */
export function parseInventory(text: string): GpuInfo[] {
  const out: GpuInfo[] = [];
  for (const [index, uuid, name, memory, pciBusId] of rows(text)) {
    const i = num(index);
    const mem = num(memory);
    if (i === undefined || mem === undefined || !uuid || isFault(uuid) || !name || isFault(name)) continue;
    const busId = normaliseBusId(pciBusId ?? '');
    out.push({ index: i, uuid, name, memoryMiB: mem, ...(busId ? { busId } : {}) });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Samples of a SAMPLE_FIELDS query, with the first fault value a line carries. */
export function parseSamples(text: string): GpuSample[] {
  const out: GpuSample[] = [];
  for (const fields of rows(text)) {
    const [index, uuid, util, used, total, temp, power] = fields;
    const i = num(index);
    if (i === undefined || uuid === undefined) continue;
    const sample: GpuSample = { index: i, uuid };
    const values: Array<[keyof GpuSample, string | undefined]> = [
      ['utilizationPercent', util],
      ['memoryUsedMiB', used],
      ['memoryTotalMiB', total],
      ['temperatureC', temp],
      ['powerW', power],
    ];
    for (const [key, raw] of values) {
      const n = num(raw);
      if (n !== undefined) (sample as unknown as Record<string, number>)[key] = n;
    }
    const fault = fields.find(isFault);
    if (fault) sample.fault = fault.slice(1, -1);
    out.push(sample);
  }
  return out;
}

/** The nvidia-smi on this PATH (the agent's), as a shell would find it. */
export function findOnPath(command: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export class NvidiaSmiError extends Error {}

/**
 * Runs one query. nvidia-smi exits non-zero when some GPU failed (e.g. 15, "GPU is lost") yet
 * still prints the lines of the others: those lines are returned; only no output at all throws.
 */
export function queryGpus(bin: string, fields: readonly string[]): Promise<string> {
  const args = [`--query-gpu=${fields.join(',')}`, '--format=csv,noheader,nounits'];
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: QUERY_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error || rows(stdout).length > 0) return resolve(stdout);
      reject(new NvidiaSmiError(`${bin} failed: ${(stderr || stdout || error.message).trim()}`));
    });
  });
}

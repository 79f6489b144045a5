// Facts about the host the Node reports: capacity (cpu, memory, ephemeral storage) and the
// pressure signals behind MemoryPressure, DiskPressure and PIDPressure.
import { readFile, statfs } from 'node:fs/promises';
import { arch, availableParallelism, hostname, platform, release, totalmem } from 'node:os';

const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x' };

/** Thresholds as the kubelet's default hard eviction signals (memory.available<100Mi, nodefs.available<10%). */
export const MEMORY_AVAILABLE_MIN_BYTES = 100 * 1024 * 1024;
export const DISK_FREE_MIN_RATIO = 0.1;
/** PIDPressure once this share of pid_max is in use. */
export const PID_USED_MAX_RATIO = 0.9;

export interface HostFacts {
  cpus: number;
  memoryBytes: number;
  diskBytes: number;
  hostname: string;
  os: string;
  arch: string;
  kernelVersion: string;
  osImage: string;
  machineID: string;
  bootID: string;
}

export interface Pressure {
  memoryAvailableBytes: number | undefined;
  diskFreeRatio: number | undefined;
  pidsUsed: number | undefined;
  pidMax: number | undefined;
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').then(
    (t) => t.trim(),
    () => undefined,
  );
}

async function osImage(): Promise<string> {
  const text = (await readText('/etc/os-release')) ?? '';
  const match = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text);
  return match?.[1] ?? `${platform()} ${release()}`;
}

async function filesystem(dir: string): Promise<{ total: number; free: number } | undefined> {
  try {
    const fs = await statfs(dir);
    return { total: fs.blocks * fs.bsize, free: fs.bavail * fs.bsize };
  } catch {
    return undefined;
  }
}

export async function hostFacts(dataDir: string): Promise<HostFacts> {
  const [image, machineID, bootID, fs] = await Promise.all([
    osImage(),
    readText('/etc/machine-id'),
    readText('/proc/sys/kernel/random/boot_id'),
    filesystem(dataDir),
  ]);
  return {
    cpus: availableParallelism(),
    memoryBytes: totalmem(),
    diskBytes: fs?.total ?? 0,
    hostname: hostname(),
    os: platform(),
    arch: GO_ARCH[arch()] ?? arch(),
    kernelVersion: release(),
    osImage: image,
    machineID: machineID ?? '',
    bootID: bootID ?? '',
  };
}

async function memoryAvailable(): Promise<number | undefined> {
  const text = await readText('/proc/meminfo');
  const match = text ? /^MemAvailable:\s+(\d+) kB$/m.exec(text) : null;
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
}

/** Threads in use, from /proc/loadavg's "running/total" field, and the kernel's pid_max. */
async function pids(): Promise<{ used: number | undefined; max: number | undefined }> {
  const [loadavg, pidMax] = await Promise.all([readText('/proc/loadavg'), readText('/proc/sys/kernel/pid_max')]);
  const total = loadavg?.split(' ')[3]?.split('/')[1];
  return { used: total === undefined ? undefined : Number(total), max: pidMax === undefined ? undefined : Number(pidMax) };
}

export async function hostPressure(dataDir: string): Promise<Pressure> {
  const [memory, fs, p] = await Promise.all([memoryAvailable(), filesystem(dataDir), pids()]);
  return {
    memoryAvailableBytes: memory,
    diskFreeRatio: fs && fs.total > 0 ? fs.free / fs.total : undefined,
    pidsUsed: p.used,
    pidMax: p.max,
  };
}

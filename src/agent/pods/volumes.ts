// Pod volumes on the node, under <dataDir>/pods/<uid>/volumes/<kind>/<name> as the kubelet
// lays them out: emptyDir (a directory shared by the pod's containers), hostPath (with its
// type checks), and configMap, secret and downwardAPI projected as files from the API. A
// volume that cannot be set up is a FailedMount and the pod waits in ContainerCreating.
import { constants, existsSync } from 'node:fs';
import { access, mkdir, open, rm, stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { Mount } from '../runtime/runtime.js';
import { writeAtomicDir, type FileContent } from './atomic-dir.js';
import { configMapBytes, secretBytes, type ConfigSource } from './config-source.js';
import { formatMap } from './env.js';
import type { Container, KeyToPath, Pod, Volume } from './pod-types.js';

export class VolumeError extends Error {
  readonly reason = 'FailedMount';
}

export interface VolumeContext {
  dataDir: string;
  pod: Pod;
  sources: ConfigSource;
}

/** Host directory (or file) of each volume, by volume name; projected ones are read-only. */
export type VolumePaths = Map<string, { path: string; readOnly: boolean }>;

export function podDir(dataDir: string, uid: string): string {
  return join(dataDir, 'pods', uid);
}

function volumeDir(ctx: VolumeContext, kind: string, name: string): string {
  return join(podDir(ctx.dataDir, ctx.pod.metadata.uid ?? ''), 'volumes', `kubernetes.io~${kind}`, name);
}

async function hostPath(volume: Volume): Promise<string> {
  const { path, type = '' } = volume.hostPath!;
  const fail = (what: string): never => {
    throw new VolumeError(`MountVolume.SetUp failed for volume "${volume.name}" : hostPath type check failed: ${path} ${what}`);
  };
  const info = await stat(path).catch(() => undefined);
  switch (type) {
    case 'DirectoryOrCreate':
      if (!info) await mkdir(path, { recursive: true, mode: 0o755 });
      else if (!info.isDirectory()) fail('is not a directory');
      break;
    case 'FileOrCreate':
      if (!info) await (await open(path, 'a', 0o644)).close();
      else if (!info.isFile()) fail('is not a file');
      break;
    case 'Directory': if (!info?.isDirectory()) fail('is not a directory'); break;
    case 'File': if (!info?.isFile()) fail('is not a file'); break;
    case 'Socket': if (!info?.isSocket()) fail('is not a socket file'); break;
    case 'CharDevice': if (!info?.isCharacterDevice()) fail('is not a character device'); break;
    case 'BlockDevice': if (!info?.isBlockDevice()) fail('is not a block device'); break;
    default: break;
  }
  return path;
}

function projectKeys(all: Record<string, Buffer>, items: KeyToPath[] | undefined, mode: number, what: string, optional: boolean): Map<string, FileContent> {
  const files = new Map<string, FileContent>();
  if (!items || items.length === 0) {
    for (const [key, content] of Object.entries(all)) files.set(key, { content, mode });
    return files;
  }
  for (const item of items) {
    const content = all[item.key];
    if (content === undefined) {
      if (optional) continue;
      throw new VolumeError(`configuration error: ${what}: no key ${item.key}`);
    }
    files.set(normalize(item.path), { content, mode: item.mode ?? mode });
  }
  return files;
}

async function configMapFiles(ctx: VolumeContext, volume: Volume): Promise<Map<string, FileContent>> {
  const source = volume.configMap!;
  const ns = ctx.pod.metadata.namespace ?? 'default';
  const cm = await ctx.sources.configMap(ns, source.name ?? '');
  if (!cm) {
    if (source.optional) return new Map();
    throw new VolumeError(`MountVolume.SetUp failed for volume "${volume.name}" : configmap "${source.name ?? ''}" not found`);
  }
  return projectKeys(configMapBytes(cm), source.items, source.defaultMode ?? 0o644, `configmap ${ns}/${source.name ?? ''}`, source.optional ?? false);
}

async function secretFiles(ctx: VolumeContext, volume: Volume): Promise<Map<string, FileContent>> {
  const source = volume.secret!;
  const ns = ctx.pod.metadata.namespace ?? 'default';
  const secret = await ctx.sources.secret(ns, source.secretName ?? '');
  if (!secret) {
    if (source.optional) return new Map();
    throw new VolumeError(`MountVolume.SetUp failed for volume "${volume.name}" : secret "${source.secretName ?? ''}" not found`);
  }
  return projectKeys(secretBytes(secret), source.items, source.defaultMode ?? 0o644, `secret ${ns}/${source.secretName ?? ''}`, source.optional ?? false);
}

function downwardFiles(ctx: VolumeContext, volume: Volume): Map<string, FileContent> {
  const source = volume.downwardAPI!;
  const meta = ctx.pod.metadata;
  const files = new Map<string, FileContent>();
  for (const item of source.items ?? []) {
    const path = item.fieldRef?.fieldPath ?? '';
    const indexed = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
    let value: string;
    if (indexed) value = (indexed[1] === 'labels' ? meta.labels : meta.annotations)?.[indexed[2]!] ?? '';
    else if (path === 'metadata.labels') value = formatMap(meta.labels);
    else if (path === 'metadata.annotations') value = formatMap(meta.annotations);
    else if (path === 'metadata.name') value = meta.name ?? '';
    else if (path === 'metadata.namespace') value = meta.namespace ?? '';
    else if (path === 'metadata.uid') value = meta.uid ?? '';
    else continue;
    files.set(normalize(item.path), { content: Buffer.from(value), mode: item.mode ?? source.defaultMode ?? 0o644 });
  }
  return files;
}

async function setUpVolume(ctx: VolumeContext, volume: Volume): Promise<string | undefined> {
  if (volume.hostPath) return hostPath(volume);
  if (volume.emptyDir) {
    const dir = volumeDir(ctx, 'empty-dir', volume.name);
    // World-writable as the kubelet makes it: containers may run as any user.
    if (!existsSync(dir)) await mkdir(dir, { recursive: true, mode: 0o777 });
    return dir;
  }
  if (volume.configMap) {
    const dir = volumeDir(ctx, 'configmap', volume.name);
    await writeAtomicDir(dir, await configMapFiles(ctx, volume));
    return dir;
  }
  if (volume.secret) {
    const dir = volumeDir(ctx, 'secret', volume.name);
    await writeAtomicDir(dir, await secretFiles(ctx, volume));
    return dir;
  }
  if (volume.downwardAPI) {
    const dir = volumeDir(ctx, 'downward-api', volume.name);
    await writeAtomicDir(dir, downwardFiles(ctx, volume));
    return dir;
  }
  return undefined;
}

/** Sets up (or refreshes) every volume; the first failure names its volume. */
export async function setUpVolumes(ctx: VolumeContext): Promise<VolumePaths> {
  const paths: VolumePaths = new Map();
  for (const volume of ctx.pod.spec.volumes ?? []) {
    let path: string | undefined;
    try {
      path = await setUpVolume(ctx, volume);
    } catch (error) {
      if (error instanceof VolumeError) throw error;
      throw new VolumeError(`MountVolume.SetUp failed for volume "${volume.name}" : ${(error as Error).message}`);
    }
    const projected = Boolean(volume.configMap || volume.secret || volume.downwardAPI);
    if (path !== undefined) paths.set(volume.name, { path, readOnly: projected });
  }
  return paths;
}

/** The container's bind mounts; a volume the agent does not support is reported, not mounted. */
export async function containerMounts(container: Container, paths: VolumePaths): Promise<Mount[]> {
  const mounts: Mount[] = [];
  for (const m of container.volumeMounts ?? []) {
    const volume = paths.get(m.name);
    if (volume === undefined) throw new VolumeError(`unable to mount volume "${m.name}": the volume type is not supported by this node`);
    let source = volume.path;
    if (m.subPath) {
      source = join(volume.path, normalize(m.subPath));
      // As the kubelet, a missing subPath inside a directory volume is created.
      await access(source, constants.F_OK).catch(() => mkdir(source, { recursive: true, mode: 0o777 }));
    }
    mounts.push({ type: 'bind', source, target: m.mountPath, readOnly: volume.readOnly || (m.readOnly ?? false) });
  }
  return mounts;
}

export async function removePodDir(dataDir: string, uid: string): Promise<void> {
  await rm(podDir(dataDir, uid), { recursive: true, force: true });
}

// Pod volumes on the node, under <dataDir>/pods/<uid>/volumes/<kind>/<name> as the kubelet
// lays them out: emptyDir (a directory shared by the pod's containers), hostPath (with its
// type checks), persistentVolumeClaim (the bound volume's directory: persistent.ts), and
// configMap, secret, downwardAPI and projected (service-account token) volumes as files from the API. A volume that cannot be set up is a FailedMount and the pod waits in
// ContainerCreating.
import { constants, existsSync } from 'node:fs';
import { access, mkdir, open, rm, stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { Mount } from '../../runtime/runtime.js';
import { writeAtomicDir } from './atomic-dir.js';
import type { ConfigSource } from '../config-source.js';
import { isClaimVolume, resolveClaim } from './persistent.js';
import { projectedFiles } from './projected.js';
import type { ServiceAccountTokenSource } from './service-account-tokens.js';
import { configMapFiles, downwardFiles, secretFiles, VolumeError } from './source-files.js';
import type { Container, Pod, Volume } from '../../../api/core/index.js';

export { VolumeError };

export interface VolumeContext {
  dataDir: string;
  pod: Pod;
  sources: ConfigSource;
  /** This agent's directory for local-path volumes; without it such a volume fails to mount. */
  localPathDir?: string | undefined;
  /** Service-account tokens for projected volumes; without it such a volume fails to mount. */
  tokens?: ServiceAccountTokenSource | undefined;
}

/** Host directory (or file) of each volume, by volume name; projected ones are read-only. */
export type VolumePaths = Map<string, { path: string; readOnly: boolean }>;

export function podDir(dataDir: string, uid: string): string {
  return join(dataDir, 'pods', uid);
}

function volumeDir(ctx: VolumeContext, kind: string, name: string): string {
  return join(podDir(ctx.dataDir, ctx.pod.metadata.uid ?? ''), 'volumes', `kubernetes.io~${kind}`, name);
}

async function hostPath(volume: Pick<Volume, 'name' | 'hostPath'>): Promise<string> {
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
    case 'Directory':
      if (!info?.isDirectory()) fail('is not a directory');
      break;
    case 'File':
      if (!info?.isFile()) fail('is not a file');
      break;
    case 'Socket':
      if (!info?.isSocket()) fail('is not a socket file');
      break;
    case 'CharDevice':
      if (!info?.isCharacterDevice()) fail('is not a character device');
      break;
    case 'BlockDevice':
      if (!info?.isBlockDevice()) fail('is not a block device');
      break;
    default:
      break;
  }
  return path;
}

async function setUpVolume(ctx: VolumeContext, volume: Volume): Promise<string | undefined> {
  if (volume.hostPath) return hostPath(volume);
  if (volume.emptyDir) {
    const dir = volumeDir(ctx, 'empty-dir', volume.name);
    // World-writable as the kubelet makes it: containers may run as any user.
    if (!existsSync(dir)) await mkdir(dir, { recursive: true, mode: 0o777 });
    return dir;
  }
  const source = { pod: ctx.pod, sources: ctx.sources, volume: volume.name, tokens: ctx.tokens };
  if (volume.configMap) {
    const dir = volumeDir(ctx, 'configmap', volume.name);
    await writeAtomicDir(dir, await configMapFiles(source, volume.configMap, volume.configMap.defaultMode ?? 0o644));
    return dir;
  }
  if (volume.secret) {
    const dir = volumeDir(ctx, 'secret', volume.name);
    const { secretName, ...rest } = volume.secret;
    await writeAtomicDir(
      dir,
      await secretFiles(source, { ...rest, ...(secretName === undefined ? {} : { name: secretName }) }, volume.secret.defaultMode ?? 0o644),
    );
    return dir;
  }
  if (volume.downwardAPI) {
    const dir = volumeDir(ctx, 'downward-api', volume.name);
    await writeAtomicDir(dir, downwardFiles(ctx.pod, volume.downwardAPI.items, volume.downwardAPI.defaultMode ?? 0o644));
    return dir;
  }
  if (volume.projected) {
    const dir = volumeDir(ctx, 'projected', volume.name);
    await writeAtomicDir(dir, await projectedFiles(source, volume.projected));
    return dir;
  }
  return undefined;
}

/** Sets up (or refreshes) every volume; the first failure names its volume. */
export async function setUpVolumes(ctx: VolumeContext): Promise<VolumePaths> {
  const paths: VolumePaths = new Map();
  for (const volume of ctx.pod.spec.volumes ?? []) {
    let path: string | undefined;
    // Projected kinds are read-only as the kubelet mounts them; a claim as its source says.
    let readOnly = Boolean(volume.configMap || volume.secret || volume.downwardAPI || volume.projected);
    try {
      if (isClaimVolume(volume)) {
        const claimed = await resolveClaim(ctx.pod, volume, ctx.sources, ctx.localPathDir);
        readOnly = claimed.readOnly;
        path = await hostPath({ name: volume.name, hostPath: claimed.hostPath });
      } else {
        path = await setUpVolume(ctx, volume);
      }
    } catch (error) {
      if (error instanceof VolumeError) throw error;
      throw new VolumeError(`MountVolume.SetUp failed for volume "${volume.name}" : ${(error as Error).message}`);
    }
    if (path !== undefined) paths.set(volume.name, { path, readOnly });
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

// persistentVolumeClaim and generic ephemeral volumes: the claim, then the volume it is bound to, then the volume's
// directory on this node (hostPath or local). Until the claim is bound the pod waits in
// ContainerCreating with the kubelet's FailedMount message. A local-path volume's directory is
// made here, world-writable as rancher's provisioner makes it (containers may run as any user).
import { chmod, mkdir, stat } from 'node:fs/promises';
import type { KubeObject } from '../../api/meta.js';
import { ephemeralClaimName, isOwnedByPod } from '../../api/volumes/claims.js';
import { ANN_PROVISIONED_BY, LOCAL_PATH_PROVISIONER } from '../../api/volumes/names.js';
import type { ConfigSource } from './config-source.js';
import { VolumeError } from './volume-files.js';
import type { Pod, Volume } from '../../api/core/index.js';

type Obj = Record<string, any>;

export interface ClaimedVolume {
  path: string;
  readOnly: boolean;
  /** The volume's own source as a pod volume would name it (hostPath checks apply to it). */
  hostPath: { path: string; type?: string };
}

/** Whether the volume is one a claim backs: persistentVolumeClaim, or ephemeral (its claim made for the pod). */
export function isClaimVolume(volume: Volume): boolean {
  return Boolean(volume['persistentVolumeClaim'] || volume['ephemeral']);
}

/** The volume of a persistentVolumeClaim or ephemeral volume, or a VolumeError saying why not yet. */
export async function resolveClaim(pod: Pod, volume: Volume, sources: ConfigSource): Promise<ClaimedVolume> {
  const ephemeral = volume['persistentVolumeClaim'] === undefined;
  const source = (volume['persistentVolumeClaim'] ?? { claimName: ephemeralClaimName(pod.metadata.name ?? '', volume.name) }) as { claimName: string; readOnly?: boolean };
  const namespace = pod.metadata.namespace ?? '';
  const claimName = source.claimName;
  const unprocessed = (why: string) => new VolumeError(
    `Unable to attach or mount volumes: unmounted volumes=[${volume.name}], unattached volumes=[], failed to process volumes=[${volume.name}]: error processing PVC ${namespace}/${claimName}: ${why}`,
  );
  const claim = await sources.persistentVolumeClaim(namespace, claimName);
  if (!claim) throw unprocessed(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`);
  if (ephemeral && !isOwnedByPod(claim, pod)) throw unprocessed(`PVC ${namespace}/${claimName} was not created for pod ${namespace}/${pod.metadata.name ?? ''} (pod is not owner)`);
  const volumeName = (claim['spec'] as Obj | undefined)?.['volumeName'];
  if (typeof volumeName !== 'string' || volumeName === '' || (claim['status'] as Obj | undefined)?.['phase'] !== 'Bound') throw unprocessed('PVC is not bound');
  const pv = await sources.persistentVolume(volumeName);
  if (!pv) throw unprocessed(`failed to fetch PV ${volumeName} from API server: persistentvolumes "${volumeName}" not found`);
  const ref = (pv['spec'] as Obj | undefined)?.['claimRef'] as Obj | undefined;
  if (ref?.['uid'] !== claim.metadata.uid) throw unprocessed(`PV ${volumeName} is not bound to this claim`);
  const hostPath = volumeDirectory(pv);
  if (!hostPath) throw new VolumeError(`MountVolume.SetUp failed for volume "${volumeName}" : the volume's source is not supported by this node (hostPath and local are)`);
  if (pv.metadata.annotations?.[ANN_PROVISIONED_BY] === LOCAL_PATH_PROVISIONER) await makeLocalPathDirectory(hostPath.path);
  const readOnly = source.readOnly === true || (pv['spec'] as Obj)['nfs']?.['readOnly'] === true;
  return { path: hostPath.path, readOnly, hostPath };
}

function volumeDirectory(pv: KubeObject): ClaimedVolume['hostPath'] | undefined {
  const spec = (pv['spec'] ?? {}) as Obj;
  if (typeof spec['hostPath']?.['path'] === 'string') return spec['hostPath'];
  // A local volume is made by its administrator: it must exist (the kubelet checks the same).
  if (typeof spec['local']?.['path'] === 'string') return { path: spec['local']['path'], type: 'Directory' };
  return undefined;
}

async function makeLocalPathDirectory(path: string): Promise<void> {
  if (await stat(path).catch(() => undefined)) return;
  await mkdir(path, { recursive: true, mode: 0o777 });
  // mkdir's mode passes through the umask.
  await chmod(path, 0o777);
}

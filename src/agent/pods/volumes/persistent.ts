// persistentVolumeClaim and generic ephemeral volumes: the claim, then the volume it is bound to, then the volume's
// directory on this node (hostPath or local). Until the claim is bound the pod waits in
// ContainerCreating with the kubelet's FailedMount message. A local-path volume's directory is
// made here, world-writable as rancher's provisioner makes it (containers may run as any user),
// but only inside this agent's local-path directory and only for a volume pinned to this node:
// a PV naming any other path is refused, so no API client can have the agent make a 0777
// directory wherever it likes.
import { chmod, mkdir, stat } from 'node:fs/promises';
import type { KubeObject } from '../../../api/meta.js';
import { ephemeralClaimName, isOwnedByPod } from '../../../api/volumes/claims.js';
import { ANN_PROVISIONED_BY, LABEL_LOCAL_PATH_NODE, LOCAL_PATH_PROVISIONER } from '../../../api/volumes/names.js';
import { isInside } from '../../storage/local-path-dir.js';
import type { ConfigSource } from '../config-source.js';
import { VolumeError } from './source-files.js';
import type { Pod, Volume } from '../../../api/core/index.js';

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

/**
 * The volume of a persistentVolumeClaim or ephemeral volume, or a VolumeError saying why not yet.
 * `localPathDir` is this agent's directory for local-path volumes (the one it publishes on its Node).
 */
export async function resolveClaim(pod: Pod, volume: Volume, sources: ConfigSource, localPathDir: string | undefined): Promise<ClaimedVolume> {
  const ephemeral = volume['persistentVolumeClaim'] === undefined;
  const source = (volume['persistentVolumeClaim'] ?? { claimName: ephemeralClaimName(pod.metadata.name ?? '', volume.name) }) as {
    claimName: string;
    readOnly?: boolean;
  };
  const namespace = pod.metadata.namespace ?? '';
  const claimName = source.claimName;
  const unprocessed = (why: string) =>
    new VolumeError(
      `Unable to attach or mount volumes: unmounted volumes=[${volume.name}], unattached volumes=[], failed to process volumes=[${volume.name}]: error processing PVC ${namespace}/${claimName}: ${why}`,
    );
  const claim = await sources.persistentVolumeClaim(namespace, claimName);
  if (!claim) throw unprocessed(`failed to fetch PVC from API server: persistentvolumeclaims "${claimName}" not found`);
  if (ephemeral && !isOwnedByPod(claim, pod))
    throw unprocessed(`PVC ${namespace}/${claimName} was not created for pod ${namespace}/${pod.metadata.name ?? ''} (pod is not owner)`);
  const volumeName = (claim['spec'] as Obj | undefined)?.['volumeName'];
  if (typeof volumeName !== 'string' || volumeName === '' || (claim['status'] as Obj | undefined)?.['phase'] !== 'Bound') throw unprocessed('PVC is not bound');
  const pv = await sources.persistentVolume(volumeName);
  if (!pv) throw unprocessed(`failed to fetch PV ${volumeName} from API server: persistentvolumes "${volumeName}" not found`);
  const ref = (pv['spec'] as Obj | undefined)?.['claimRef'] as Obj | undefined;
  if (ref?.['uid'] !== claim.metadata.uid) throw unprocessed(`PV ${volumeName} is not bound to this claim`);
  const hostPath = volumeDirectory(pv);
  if (!hostPath)
    throw new VolumeError(`MountVolume.SetUp failed for volume "${volumeName}" : the volume's source is not supported by this node (hostPath and local are)`);
  if (pv.metadata.annotations?.[ANN_PROVISIONED_BY] === LOCAL_PATH_PROVISIONER) {
    const refused = localPathRefusal(pv, hostPath.path, pod.spec.nodeName ?? '', localPathDir);
    if (refused) throw new VolumeError(`MountVolume.SetUp failed for volume "${volumeName}" : ${refused}`);
    await makeLocalPathDirectory(hostPath.path);
  }
  return { path: hostPath.path, readOnly: source.readOnly === true, hostPath };
}

function volumeDirectory(pv: KubeObject): ClaimedVolume['hostPath'] | undefined {
  const spec = (pv['spec'] ?? {}) as Obj;
  if (typeof spec['hostPath']?.['path'] === 'string') return spec['hostPath'];
  // A local volume is made by its administrator: it must exist (the kubelet checks the same).
  if (typeof spec['local']?.['path'] === 'string') return { path: spec['local']['path'], type: 'Directory' };
  return undefined;
}

/** Why this node will not make a local-path volume's directory; undefined when it will. */
function localPathRefusal(pv: KubeObject, path: string, nodeName: string, localPathDir: string | undefined): string | undefined {
  if (localPathDir === undefined) return 'this node keeps no local-path volumes';
  const pinnedTo = pv.metadata.labels?.[LABEL_LOCAL_PATH_NODE];
  if (pinnedTo !== nodeName) return `local-path volume is pinned to node "${pinnedTo ?? ''}", not to this node "${nodeName}"`;
  if (!isInside(localPathDir, path)) return `local-path volume's path ${path} is not inside this node's local-path directory ${localPathDir}`;
  return undefined;
}

async function makeLocalPathDirectory(path: string): Promise<void> {
  if (await stat(path).catch(() => undefined)) return;
  await mkdir(path, { recursive: true, mode: 0o777 });
  // mkdir's mode passes through the umask.
  await chmod(path, 0o777);
}

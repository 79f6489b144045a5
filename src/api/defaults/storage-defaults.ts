// Defaults of PersistentVolume, PersistentVolumeClaim and StorageClass, as Kubernetes' defaulters
// set them: a volume is Pending and Retain until told otherwise, claims and volumes are
// Filesystem, a class deletes what it provisioned and binds at once unless told otherwise.
import { isObject, type KubeObject } from '../meta.js';

function statusPhase(object: KubeObject, phase: string): void {
  const status = isObject(object['status']) ? object['status'] : (object['status'] = {});
  if (status['phase'] === undefined) status['phase'] = phase;
}

export function applyPersistentVolumeDefaults(volume: KubeObject): void {
  const spec = volume['spec'];
  if (isObject(spec)) {
    spec['persistentVolumeReclaimPolicy'] ??= 'Retain';
    spec['volumeMode'] ??= 'Filesystem';
  }
  statusPhase(volume, 'Pending');
}

export function applyPersistentVolumeClaimDefaults(claim: KubeObject): void {
  const spec = claim['spec'];
  if (isObject(spec)) spec['volumeMode'] ??= 'Filesystem';
  statusPhase(claim, 'Pending');
}

export function applyStorageClassDefaults(storageClass: KubeObject): void {
  storageClass['reclaimPolicy'] ??= 'Delete';
  storageClass['volumeBindingMode'] ??= 'Immediate';
}

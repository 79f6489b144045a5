// The local-path StorageClass, as k3s ships it: provisioner rancher.io/local-path (Drover's
// built-in provisioner, src/controllers/volumes/local-path-provisioner.ts), volumes made when
// their first pod is scheduled, deleted with their claim, and the cluster's default class.
// It is made with a new cluster only: a cluster whose administrator deleted it (or marked
// another class default) keeps it that way across restarts.
import { findResource } from '../api/registry.js';
import { ANN_DEFAULT_CLASS, LOCAL_PATH_CLASS, LOCAL_PATH_PROVISIONER } from '../api/volumes/names.js';
import type { ObjectRegistry } from './registry/object-registry.js';

export const LOCAL_PATH_STORAGE_CLASS = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: LOCAL_PATH_CLASS, annotations: { [ANN_DEFAULT_CLASS]: 'true' } },
  provisioner: LOCAL_PATH_PROVISIONER,
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
};

/** `newCluster`: this start made the cluster's system namespaces, so it has never had the class. */
export async function ensureLocalPathStorageClass(registry: ObjectRegistry, newCluster: boolean): Promise<void> {
  if (!newCluster) return;
  const def = findResource('storage.k8s.io', 'v1', 'storageclasses')!;
  try {
    await registry.create(def, undefined, structuredClone(LOCAL_PATH_STORAGE_CLASS), { dryRun: false, fieldManager: 'drover', fieldValidation: 'Strict' });
  } catch (error) {
    // Servers sharing etcd start together: another one made it between our read and create.
    if ((error as { code?: number }).code !== 409) throw error;
  }
}

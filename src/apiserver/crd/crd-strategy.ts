// What the registry does to a CustomResourceDefinition beyond its schema, as Kubernetes' CRD
// strategy: status starts empty but for the storage version, which storedVersions keeps for
// good (objects may be stored in it); and the cleanup finalizer, so that deleting the CRD first
// deletes every custom resource it defines (crd-controller.ts).
import type { KubeObject } from '../../api/meta.js';
import { arr, obj, text } from '../../api/validation/util.js';
import type { Strategy } from '../registry/strategies.js';

export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

function storageVersionOf(crd: KubeObject): string | undefined {
  const version = arr(obj(crd['spec'])['versions'])
    .map(obj)
    .find((v) => v['storage'] === true);
  return version ? text(version['name']) : undefined;
}

function recordStorageVersion(crd: KubeObject): void {
  const storage = storageVersionOf(crd);
  if (!storage) return;
  const status = obj(crd['status']);
  const stored = arr(status['storedVersions']).map(text);
  if (!stored.includes(storage)) crd['status'] = { ...status, storedVersions: [...stored, storage] };
}

export const crdStrategy: Strategy = {
  prepareForCreate(crd) {
    crd['status'] = { acceptedNames: { plural: '', kind: '' }, storedVersions: [] };
    recordStorageVersion(crd);
    const finalizers = crd.metadata.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
  },
  prepareForUpdate(crd) {
    recordStorageVersion(crd);
  },
};

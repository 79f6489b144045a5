// Kubernetes' storage admission plugins, in one step:
//  - DefaultStorageClass: a claim created without a class gets the default class (the newest,
//    when several are marked); a claim naming "" asks for no class and keeps it.
//  - StorageObjectInUseProtection: claims get kubernetes.io/pvc-protection and volumes
//    kubernetes.io/pv-protection when created, so neither disappears while in use (the
//    protection controllers remove the finalizers when it is safe).
//  - PersistentVolumeClaimResize: a claim's storage request may grow only when its class allows
//    volume expansion.
import { isObject, type KubeObject } from '../../api/meta.js';
import { compare, parseQuantity, ZERO, type Quantity } from '../../api/quota/quantity.js';
import { claimClass, isDefaultClass } from '../../api/volumes/claims.js';
import { ANN_BETA_STORAGE_CLASS, PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../api/volumes/names.js';
import { forbidden } from '../errors.js';
import type { AdmissionObjects } from './admission-objects.js';
import type { MutatingAdmission } from './mutating-admission.js';
import type { AdmissionRequest, ValidatingAdmission } from './validating-admission.js';

function addFinalizer(object: KubeObject, finalizer: string): void {
  const finalizers = object.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) object.metadata.finalizers = [...finalizers, finalizer];
}

function isCore(request: AdmissionRequest, kind: string): boolean {
  return !request.subresource && request.def.group === '' && request.def.kind === kind;
}

function requestedStorage(claim: KubeObject | undefined): Quantity {
  const spec = claim && isObject(claim['spec']) ? claim['spec'] : {};
  const requests = isObject(spec['resources']) && isObject(spec['resources']['requests']) ? spec['resources']['requests'] : {};
  return parseQuantity(requests['storage']) ?? ZERO;
}

export class StorageAdmission implements MutatingAdmission, ValidatingAdmission {
  constructor(private readonly objects: AdmissionObjects) {}

  mutates(request: AdmissionRequest): boolean {
    return request.operation === 'create' && (isCore(request, 'PersistentVolume') || isCore(request, 'PersistentVolumeClaim'));
  }

  /** Only a claim's update can ask for more storage than its class allows. */
  validates(request: AdmissionRequest): boolean {
    return request.operation === 'update' && isCore(request, 'PersistentVolumeClaim') && request.old !== undefined;
  }

  async admit(request: AdmissionRequest): Promise<void> {
    if (!this.mutates(request)) return;
    const { object } = request;
    if (isCore(request, 'PersistentVolume')) addFinalizer(object, PV_PROTECTION_FINALIZER);
    if (!isCore(request, 'PersistentVolumeClaim')) return;
    addFinalizer(object, PVC_PROTECTION_FINALIZER);
    const spec = object['spec'];
    // Malformed specs are validation's to report; a class named in any way is the user's choice.
    if (!isObject(spec) || spec['storageClassName'] !== undefined || object.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined) return;
    const chosen = await this.defaultClass();
    if (chosen) spec['storageClassName'] = chosen;
  }

  async validate(request: AdmissionRequest): Promise<string[]> {
    if (!this.validates(request) || !request.old) return [];
    if (compare(requestedStorage(request.object), requestedStorage(request.old)) <= 0) return [];
    const className = claimClass(request.object);
    const storageClass = className === '' ? undefined : await this.objects.storageClass(className);
    if (storageClass?.['allowVolumeExpansion'] === true) return [];
    const name = request.object.metadata.name ?? '';
    throw forbidden(
      `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
      { group: '', plural: 'persistentvolumeclaims', name },
    );
  }

  /** The default class; with several, the newest (then the first by name), as Kubernetes picks. */
  private async defaultClass(): Promise<string | undefined> {
    let chosen: KubeObject | undefined;
    for (const storageClass of await this.objects.storageClasses()) {
      if (!isDefaultClass(storageClass)) continue;
      const created = storageClass.metadata.creationTimestamp ?? '';
      const best = chosen?.metadata.creationTimestamp ?? '';
      if (!chosen || created > best || (created === best && (storageClass.metadata.name ?? '') < (chosen.metadata.name ?? ''))) chosen = storageClass;
    }
    return chosen?.metadata.name;
  }
}

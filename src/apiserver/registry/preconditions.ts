// Write preconditions a client states in the body rather than on the object: DeleteOptions'
// preconditions, and a Binding's uid and resourceVersion. Checked against the stored object on
// every read of a read-modify-write, so a race that changes the object makes them fail.
import type { KubeObject } from '../../api/meta.js';
import { conflict, type ResourceRef } from '../errors.js';

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** Why the stored object is not the one the client named, in Kubernetes' words; undefined when it is. */
function failure(current: KubeObject, wanted: Preconditions | undefined): string | undefined {
  if (wanted?.uid && wanted.uid !== current.metadata.uid) {
    return `Precondition failed: UID in precondition: ${wanted.uid}, UID in object meta: ${current.metadata.uid ?? ''}`;
  }
  if (wanted?.resourceVersion && wanted.resourceVersion !== current.metadata.resourceVersion) {
    return `Precondition failed: ResourceVersion in precondition: ${wanted.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`;
  }
  return undefined;
}

/** A delete's preconditions: 409 Conflict, as Kubernetes' registry checks them before deleting. */
export function checkPreconditions(ref: ResourceRef, current: KubeObject, wanted: Preconditions | undefined): void {
  const why = failure(current, wanted);
  if (why !== undefined) throw conflict(ref, why);
}

/**
 * A guaranteed update's preconditions: 409 Conflict worded as Kubernetes' storage layer words
 * them (its InvalidObjError for the key), which is what a Binding naming another pod gets.
 */
export function checkStoragePreconditions(ref: ResourceRef, key: string, current: KubeObject, wanted: Preconditions | undefined): void {
  const why = failure(current, wanted);
  if (why !== undefined) throw conflict(ref, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${why}`);
}

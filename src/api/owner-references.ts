// Owner references, as apimachinery's controller_ref.go reads and writes them: the one
// controller reference an object may carry (validation allows at most one with controller:
// true), the reference a controller puts on what it creates, and an owner known only by its
// reference. Every layer that asks "who controls this object?" asks here.
import { parseApiVersion } from './group-version.js';
import type { KubeObject, ObjectMeta, OwnerReference } from './meta.js';

/** The owner reference with controller: true, if any (Kubernetes' GetControllerOf). */
export function controllerRefOf(object: Readonly<Pick<KubeObject, 'metadata'>>): Readonly<OwnerReference> | undefined {
  return object.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

/** The controller reference when the controller is of this group and kind (any version of it). */
export function controllerRefOfKind(
  object: Readonly<Pick<KubeObject, 'metadata'>>,
  type: { group: string; kind: string },
): Readonly<OwnerReference> | undefined {
  const ref = controllerRefOf(object);
  return ref !== undefined && ref.kind === type.kind && parseApiVersion(ref.apiVersion).group === type.group ? ref : undefined;
}

/** Whether `owner` is the object's controller (Kubernetes' IsControlledBy). */
export function isControlledBy(object: Readonly<Pick<KubeObject, 'metadata'>>, owner: Readonly<Pick<KubeObject, 'metadata'>>): boolean {
  const ref = controllerRefOf(object);
  return ref !== undefined && ref.uid === owner.metadata.uid;
}

/**
 * The controller reference a controller puts on the objects it creates (Kubernetes'
 * NewControllerRef). `type`: the owner's apiVersion and kind when the controller knows them
 * (one that serves one kind names it, as Kubernetes' controllers pass their GroupVersionKind);
 * by default the owner's own.
 */
export function newControllerRef(owner: Readonly<KubeObject>, type: { apiVersion: string; kind: string } = owner): OwnerReference {
  return {
    apiVersion: type.apiVersion,
    kind: type.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** A stand-in for an owner known only by its reference; a namespaced owner shares its dependent's namespace. */
export function objectFromRef(ref: Readonly<OwnerReference>, namespace: string | undefined): KubeObject {
  const metadata: ObjectMeta = { name: ref.name, uid: ref.uid };
  if (namespace !== undefined) metadata.namespace = namespace;
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata };
}

// Controller references, as Kubernetes' ControllerRefManager keeps them: a controller adopts
// orphans its selector matches, releases the objects it owns that no longer match, and never
// touches an object that is being deleted or that another controller owns. The one claim/adopt
// of every controller that adopts (ReplicaSet and ReplicationController pods, Deployment
// ReplicaSets, StatefulSet pods).
import type { KubeObject } from '../../api/meta.js';
import type { LabelSelector } from '../../api/selectors/index.js';
import { isInvalid, isNotFound, type ApiClient, type Informer, type ResourceRef } from '../../client/index.js';
import { controllerRefOf, isControlledBy, newControllerRef } from '../../api/owner-references.js';
import { CONTROLLER_UID_INDEX, ORPHANS_BY_NAMESPACE } from './indexes.js';

export interface ClaimRequest<T extends KubeObject> {
  api: ApiClient;
  resource: ResourceRef;
  owner: Readonly<KubeObject>;
  selector: LabelSelector;
  /** Objects whose controller reference names the owner. */
  owned: readonly Readonly<T>[];
  /** Objects in the owner's namespace without a controller (they need not match the selector). */
  orphans: readonly Readonly<T>[];
  /** A fresh (uncached) check that the owner still exists and is not being deleted; asked once, before the first adoption. */
  canAdopt(): Promise<boolean>;
}

/** The objects the owner controls after adopting and releasing. */
export async function claimObjects<T extends KubeObject>(request: ClaimRequest<T>): Promise<Readonly<T>[]> {
  const { owner, selector } = request;
  const claimed: Readonly<T>[] = [];
  for (const object of request.owned) {
    if (!isControlledBy(object, owner)) continue;
    if (selector.matches(object.metadata.labels)) {
      claimed.push(object);
      continue;
    }
    // A controller being deleted keeps what it has: the garbage collector deals with it.
    if (owner.metadata.deletionTimestamp || object.metadata.deletionTimestamp) continue;
    await release(request, object);
  }
  const candidates = request.orphans.filter(
    (object) => !object.metadata.deletionTimestamp && controllerRefOf(object) === undefined && selector.matches(object.metadata.labels),
  );
  if (candidates.length === 0 || owner.metadata.deletionTimestamp || !(await request.canAdopt())) return claimed;
  for (const object of candidates) {
    const adopted = await adopt(request, object);
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

async function adopt<T extends KubeObject>(request: ClaimRequest<T>, object: Readonly<T>): Promise<Readonly<T> | undefined> {
  const patch = { metadata: { ownerReferences: [newControllerRef(request.owner)], uid: object.metadata.uid } };
  try {
    const adopted = await request.api.resource<T>(request.resource, object.metadata.namespace).patch(object.metadata.name ?? '', 'strategic', patch);
    // Someone else may have claimed it between our read and our patch.
    return isControlledBy(adopted, request.owner) ? adopted : undefined;
  } catch (error) {
    // Gone, or another controller won the race (a second controller reference is invalid).
    if (isNotFound(error) || isInvalid(error)) return undefined;
    throw error;
  }
}

async function release<T extends KubeObject>(request: ClaimRequest<T>, object: Readonly<T>): Promise<void> {
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: request.owner.metadata.uid }], uid: object.metadata.uid } };
  try {
    await request.api.resource<T>(request.resource, object.metadata.namespace).patch(object.metadata.name ?? '', 'strategic', patch);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

export interface ClaimFromCache<T extends KubeObject> {
  api: ApiClient;
  /** The owner's kind: where the fresh check before adopting reads it. */
  ownerResource: ResourceRef;
  owner: Readonly<KubeObject>;
  selector: LabelSelector;
  /** The owned kind, and its informer indexed by controller uid and orphans by namespace. */
  resource: ResourceRef;
  informer: Informer<T>;
  /** Only objects this is true of are claimed (a StatefulSet's members). */
  filter?(object: Readonly<T>): boolean;
}

/**
 * The objects the owner controls, read from the cache: owned ones that still match, plus the
 * orphans adopted now. The common case (no orphans, every owned object matching) costs no request.
 */
export function claimFromCache<T extends KubeObject>(request: ClaimFromCache<T>): Promise<Readonly<T>[]> {
  const { api, owner, selector, filter = () => true } = request;
  const owned = request.informer.byIndex(CONTROLLER_UID_INDEX, owner.metadata.uid ?? '').filter(filter);
  const orphans = request.informer.byIndex(ORPHANS_BY_NAMESPACE, owner.metadata.namespace ?? '').filter(filter);
  if (orphans.length === 0 && owned.every((object) => selector.matches(object.metadata.labels))) return Promise.resolve(owned);
  return claimObjects<T>({
    api,
    resource: request.resource,
    owner,
    selector,
    owned,
    orphans,
    // Kubernetes' RecheckDeletionTimestamp: adopt only for an owner that still exists, uncached, and is not going.
    canAdopt: async () => {
      const fresh = await api
        .resource(request.ownerResource, owner.metadata.namespace)
        .get(owner.metadata.name ?? '')
        .catch(() => undefined);
      return fresh !== undefined && fresh.metadata.uid === owner.metadata.uid && !fresh.metadata.deletionTimestamp;
    },
  });
}

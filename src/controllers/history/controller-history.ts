// The revisions of one owner through the API: claims them (adopting orphans its selector
// matches, as Kubernetes' ControllerRevision ref manager), makes sure the current template has
// the newest revision (creating it, or renumbering the equal older one a rollback brought back)
// and deletes what the history limit lets go. Reads the shared ControllerRevision informer.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { isControlledBy } from '../../api/owner-references.js';
import type { LabelSelector } from '../../api/selectors/index.js';
import { indexers, isAlreadyExists, isNotFound, resources, type ApiClient, type Informer, type ResourceRef } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { claimFromCache } from '../shape/claim.js';
import { CONTROLLER_UID_INDEX, orphansByNamespace, ORPHANS_BY_NAMESPACE } from '../shape/indexes.js';
import {
  byRevision,
  newRevision,
  nextRevisionNumber,
  revisionData,
  revisionHash,
  revisionName,
  revisionsToPrune,
  sameData,
  type ControllerRevision,
  type Template,
} from './revisions.js';

export interface HistoryOwner {
  owner: Readonly<KubeObject>;
  /** The owner's own resource, re-read before adopting orphans. */
  ownerResource: ResourceRef;
  controllerRef: OwnerReference;
  selector: LabelSelector;
  template: Template | undefined;
  collisionCount: number;
  /** The label that carries the hash on a revision (DaemonSets: controller-revision-hash). */
  hashLabel: string;
}

export type SyncResult =
  | { collision: false; current: Readonly<ControllerRevision>; hash: string; revisions: Readonly<ControllerRevision>[] }
  /** Another object holds the name: bump the owner's collisionCount and try again. */
  | { collision: true };

export class ControllerHistory {
  readonly informer: Informer<ControllerRevision>;
  private readonly api: ApiClient;

  constructor(ctx: ControllerContext) {
    this.api = ctx.api;
    this.informer = ctx.factory.informerFor<ControllerRevision>(resources.controllerrevisions);
    this.informer.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
    this.informer.addIndexer(ORPHANS_BY_NAMESPACE, orphansByNamespace);
  }

  /** The owner's revisions, oldest first. */
  async claim(spec: HistoryOwner): Promise<Readonly<ControllerRevision>[]> {
    const claimed = await claimFromCache<ControllerRevision>({
      api: this.api,
      ownerResource: spec.ownerResource,
      owner: spec.owner,
      selector: spec.selector,
      resource: resources.controllerrevisions,
      informer: this.informer,
    });
    return [...claimed].sort(byRevision);
  }

  /** Makes the current template the newest revision. */
  async sync(spec: HistoryOwner): Promise<SyncResult> {
    const revisions = await this.claim(spec);
    const data = revisionData(spec.template);
    const hash = revisionHash(spec.template, spec.collisionCount || undefined);
    const next = nextRevisionNumber(revisions);
    const equal = revisions.filter((r) => sameData(r, data));
    const latestEqual = equal[equal.length - 1];
    // A reused revision keeps its own hash (its name's, its pods' label): the one computed now
    // may differ, made with a collisionCount bumped since.
    const reusedHash = (revision: Readonly<ControllerRevision>) => revision.metadata.labels?.[spec.hashLabel] ?? hash;
    if (latestEqual && latestEqual === revisions[revisions.length - 1])
      return { collision: false, current: latestEqual, hash: reusedHash(latestEqual), revisions };
    if (latestEqual) {
      // A rollback (or a template used again): its old revision becomes the newest.
      const renumbered = await this.client(spec.owner).patch(latestEqual.metadata.name ?? '', 'merge', { revision: next });
      return { collision: false, current: renumbered, hash: reusedHash(renumbered), revisions: [...revisions.filter((r) => r !== latestEqual), renumbered] };
    }
    const revision = newRevision(spec.owner, spec.controllerRef, spec.template, spec.hashLabel, hash, next);
    try {
      const created = await this.client(spec.owner).create(revision);
      return { collision: false, current: created, hash, revisions: [...revisions, created] };
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      const existing = await this.client(spec.owner).get(revisionName(spec.owner.metadata.name ?? '', hash));
      const ours = isControlledBy(existing, spec.owner);
      // Our own revision the cache has not shown yet; otherwise a true hash collision.
      if (ours && sameData(existing, data)) return { collision: false, current: existing, hash, revisions: [...revisions, existing] };
      return { collision: true };
    }
  }

  /** Deletes the revisions beyond `limit` that nothing uses (names in `inUse`). */
  async prune(owner: Readonly<KubeObject>, revisions: readonly Readonly<ControllerRevision>[], limit: number, inUse: ReadonlySet<string>): Promise<void> {
    for (const revision of revisionsToPrune(revisions, limit, inUse)) {
      try {
        await this.client(owner).delete(revision.metadata.name ?? '', { preconditions: { uid: revision.metadata.uid ?? '' } });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }

  private client(owner: Readonly<KubeObject>) {
    return this.api.resource<ControllerRevision>(resources.controllerrevisions, owner.metadata.namespace);
  }
}

// The garbage collector, as Kubernetes' (pkg/controller/garbagecollector): it follows
// ownerReferences and
//   - deletes dependents whose owners are all gone (what a Background delete leaves behind),
//   - for an owner deleted in the Foreground (`foregroundDeletion` finalizer), deletes its
//     dependents and releases the finalizer once no blockOwnerDeletion dependent is left,
//   - for an owner deleted with Orphan (`orphan` finalizer), removes its reference from every
//     dependent and then releases the finalizer.
// An owner that is not in the cache is looked up with a live GET before anything is deleted on
// its account: the cache may lag. Deletes and patches carry the cached resourceVersion as a
// precondition, so an object that changed meanwhile is looked at again rather than acted on.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import {
  isConflict,
  isForbidden,
  isNotFound,
  resourceForKind,
  resources,
  splitKey,
  WorkQueue,
  type Informer,
  type Logger,
  type ReconcileResult,
  type ResourceClient,
  type ResourceRef,
  type RunningController,
} from '../../client/index.js';
import { LruMap } from '../../client/lru.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
import { DeletionProgress } from './deletion-progress.js';
import { CustomResourceInformers } from './custom-resource-informers.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, hasFinalizer, OwnershipGraph, type GraphNode } from './graph.js';
import { field, policyOf, preconditionsOf, settleAll, unblockedOwners, withoutFinalizer, withoutOwners, type Policy } from './patches.js';

export const COMPONENT = 'garbage-collector-controller';

/** The kinds that own or are owned; each informer is shared with the other controllers. */
export const COLLECTED_RESOURCES: readonly ResourceRef[] = [
  resources.pods,
  resources.replicasets,
  resources.deployments,
  resources.daemonsets,
  resources.jobs,
  resources.services,
  resources.endpoints,
  resources.endpointslices,
  resources.transactions,
  resources.configmaps,
  // Training jobs own their pods, Services and PodGroup.
  resources.pytorchjobs,
  resources.tfjobs,
  resources.podgroups,
  // CronJobs own their Jobs.
  resources.cronjobs,
  // StatefulSets and DaemonSets own their ControllerRevisions; ReplicationControllers their pods.
  resources.statefulsets,
  resources.controllerrevisions,
  resources.replicationcontrollers,
  // Pods own their ephemeral volumes' claims.
  resources.persistentvolumeclaims,
];

export interface GarbageCollectorOptions {
  resources?: readonly ResourceRef[];
  workers?: number;
  /** How often an owner of a kind no informer here watches is looked up again. Default 60 s. */
  unwatchedOwnerPollMs?: number;
  /** Least time between two progress writes of one owner's transaction. Default 1 s. */
  progressIntervalMs?: number;
}

type OwnerState = 'absent' | 'present' | 'deletingDependents' | 'unknown';

const CONFLICT_RETRY_MS = 200;
const MAX_CONFLICT_RETRIES = 5;
const ABSENT_OWNER_CACHE = 10_000;
/** Patches in flight at once while orphaning: thousands of dependents must not mean thousands of requests at once. */
const ORPHAN_CONCURRENCY = 16;

interface OwnerIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

export class GarbageCollector implements Controller {
  readonly name = COMPONENT;
  private readonly queue = new WorkQueue<string>();
  private readonly graph: OwnershipGraph;
  private readonly progress: DeletionProgress;
  private readonly logger: Logger;
  /** Uids the API said do not exist: a uid never comes back, so this never goes stale. */
  private readonly absentOwners = new LruMap<string, true>(ABSENT_OWNER_CACHE);
  /** One GET per owner at a time, however many dependents ask. */
  private readonly lookups = new Map<string, Promise<OwnerState>>();
  private readonly watched = new Set<string>();
  private readonly custom: CustomResourceInformers | undefined;
  private readonly cleanups: Array<() => void> = [];
  private readonly unknownKinds = new Set<string>();
  private running: RunningController | undefined;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly options: GarbageCollectorOptions = {},
  ) {
    this.logger = ctx.logger(COMPONENT);
    this.progress = new DeletionProgress(ctx.transactions, this.logger, options.progressIntervalMs);
    this.graph = new OwnershipGraph({
      enqueue: (node) => this.queue.add(node.key),
      dependentDetached: (owner, dependent) => this.progress.detached(owner.uid, dependent.uid),
      deletionStarted: (owner, policy) => {
        if (!ctx.shards.owns(owner.key)) return;
        if (policy === 'Orphan') this.progress.start(owner, 'deleted with propagationPolicy=Orphan: its dependents are kept', 'orphaned');
        else this.progress.start(owner, 'deleted with propagationPolicy=Foreground: its dependents go first');
      },
      ownerDeleted: (owner) => {
        if (ctx.shards.owns(owner.key)) this.progress.start(owner, 'deleted with propagationPolicy=Background: its dependents follow');
      },
    });
    for (const resource of options.resources ?? COLLECTED_RESOURCES) this.cleanups.push(this.follow(resource, ctx.factory.informerFor(resource)));
    // Custom resources own and are owned too; a collector given its own list follows only that.
    if (!options.resources)
      this.custom = new CustomResourceInformers(
        ctx,
        (resource, informer) => this.follow(resource, informer),
        (objects) => this.deletedWithCrd(objects),
      );
  }

  /** Keeps the graph up to date with one resource's informer; returns how to stop. */
  private follow(resource: ResourceRef, informer: Informer): () => void {
    this.watched.add(resourceId(resource));
    const detach = informer.addEventHandler({
      onAdd: (object) => this.graph.upsert(object, resource),
      onUpdate: (old, object) => {
        // Deleted and re-created under the same name while the watch was down: two objects.
        if (old.metadata.uid !== object.metadata.uid) this.graph.remove(old);
        this.graph.upsert(object, resource);
      },
      onDelete: (object) => this.graph.remove(object),
    });
    return () => {
      detach();
      this.watched.delete(resourceId(resource));
    };
  }

  /**
   * The custom resources of a deleted CRD: the API server deletes every one, so they are known
   * absent (their kind no longer resolves, so asking the API would only say "unknown").
   */
  private deletedWithCrd(objects: readonly Readonly<KubeObject>[]): void {
    for (const object of objects) {
      if (object.metadata.uid) this.absentOwners.set(object.metadata.uid, true);
      this.graph.remove(object);
    }
  }

  /** The resource of an apiVersion + kind: built in, or a custom resource's. */
  private resourceFor(apiVersion: string, kind: string): ResourceRef | undefined {
    return resourceForKind(apiVersion, kind) ?? this.custom?.resourceForKind(apiVersion, kind);
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: COMPONENT,
      // Keys name graph nodes (`namespace/uid`), so the graph is what a newly acquired shard
      // re-reads: every node that may need work, as stubs whose objectKey is its queue key.
      primary: { list: () => this.pendingStubs() },
      queue: this.queue,
      workers: this.options.workers ?? 8,
      reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    await this.custom?.stop();
    this.progress.stop();
    this.queue.shutDown();
    await this.running?.stop();
  }

  private pendingStubs(): KubeObject[] {
    const stubs: KubeObject[] = [];
    for (const node of this.graph.all()) {
      if (node.observed && node.owners.length === 0 && !node.beingDeleted()) continue;
      const metadata: KubeObject['metadata'] = { name: node.uid };
      if (node.namespace !== undefined) metadata.namespace = node.namespace;
      stubs.push({ apiVersion: node.object.apiVersion, kind: node.object.kind, metadata });
    }
    return stubs;
  }

  /** Keys are `namespace/uid`: one node of the graph. */
  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const node = this.graph.get(splitKey(key).name);
    if (!node) return;
    if (!node.observed) return this.verifyOwner(node);
    if (node.orphaning()) return this.orphanDependents(node);
    if (node.deletingDependents()) return this.releaseWhenUnblocked(node);
    // Being deleted for some other reason: its dependents are looked at once it is gone.
    if (node.beingDeleted()) return;
    return this.collectIfOwnerless(node);
  }

  /** A virtual node: an owner no cache holds. If the API has none either, its dependents are collected. */
  private async verifyOwner(node: GraphNode): Promise<ReconcileResult | void> {
    if (node.dependents.size === 0) return;
    const state = await this.ownerState(identityOf(node.object), node.namespace);
    if (state === 'absent') {
      if (!node.absent) {
        node.absent = true;
        if (!this.progress.isTracking(node.uid)) this.progress.start(node, 'gone before the garbage collector saw it deleted: its dependents follow');
      }
      for (const dependent of node.dependents) this.queue.add(dependent.key);
      return;
    }
    // An owner of a kind we do not watch: nothing tells us when it goes, so look again later
    // (also when it was not ours to read: permissions change, a new CRD's access comes late).
    const resource = this.resourceFor(node.object.apiVersion, node.object.kind);
    const lookedUp = resource !== undefined && (!resource.namespaced || !!node.namespace);
    if (lookedUp && !this.watched.has(resourceId(resource))) {
      return { requeueAfterMs: this.options.unwatchedOwnerPollMs ?? 60_000 };
    }
  }

  /** Kubernetes' attemptToDeleteItem for an object with owners that is not being deleted. */
  private async collectIfOwnerless(node: GraphNode): Promise<ReconcileResult | void> {
    const refs = node.owners;
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const gone: OwnerReference[] = []; // dangling, or waiting for their dependents to go
    let waiting = false;
    for (const ref of refs) {
      const owner = this.graph.get(ref.uid);
      const state = owner?.observed ? (owner.deletingDependents() ? 'deletingDependents' : 'present') : await this.ownerState(ref, node.namespace);
      if (state === 'present' || state === 'unknown') solid.push(ref);
      else gone.push(ref);
      if (state === 'deletingDependents') waiting = true;
    }
    if (solid.length > 0) {
      // Another owner keeps it alive: only the references to the others go.
      if (gone.length === 0) return;
      const uids = new Set(gone.map((ref) => ref.uid));
      return this.outcome(await this.patchMetadata(node, (object) => field('ownerReferences', withoutOwners(object, uids))));
    }
    if (waiting && node.dependents.size > 0) {
      // Its own dependents go first. If one of them also waits on its dependents, unblock our
      // references so two foreground deletions cannot wait on each other.
      if ([...node.dependents].some((dependent) => dependent.deletingDependents())) {
        const unblocked = await this.patchMetadata(node, (object) => field('ownerReferences', unblockedOwners(object)));
        if (unblocked !== 'done') return this.outcome(unblocked);
        return { requeueAfterMs: CONFLICT_RETRY_MS };
      }
      return this.deleteObject(node, 'Foreground');
    }
    return this.deleteObject(node, policyOf(node.object));
  }

  /** Orphan: every dependent loses its reference to the owner, then the owner its finalizer. */
  private async orphanDependents(owner: GraphNode): Promise<ReconcileResult | void> {
    const uids = new Set([owner.uid]);
    const results = await settleAll([...owner.dependents], ORPHAN_CONCURRENCY, (dependent) =>
      this.patchMetadata(dependent, (object) => field('ownerReferences', withoutOwners(object, uids))),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw new Error(`orphaning the dependents of ${describe(owner)} failed: ${String(failed.reason)}`);
    if (results.some((result) => result.status === 'fulfilled' && result.value === 'conflict')) return { requeueAfterMs: CONFLICT_RETRY_MS };
    return this.outcome(await this.patchMetadata(owner, (object) => field('finalizers', withoutFinalizer(object, FINALIZER_ORPHAN))));
  }

  /**
   * Foreground: the owner's dependents are being deleted (their keys were queued when the owner
   * started waiting, and as they attach); once none that blocks owner deletion is left, the
   * finalizer goes. Each dependent that leaves brings the owner back here.
   */
  private async releaseWhenUnblocked(owner: GraphNode): Promise<ReconcileResult | void> {
    for (const dependent of owner.dependents) {
      if (dependent.referenceTo(owner.uid)?.blockOwnerDeletion === true) return;
    }
    return this.outcome(await this.patchMetadata(owner, (object) => field('finalizers', withoutFinalizer(object, FINALIZER_FOREGROUND))));
  }

  private async deleteObject(node: GraphNode, policy: Policy): Promise<ReconcileResult | void> {
    const client = this.clientFor(node);
    if (!client) return;
    try {
      await client.delete(node.name, { propagationPolicy: policy, preconditions: preconditionsOf(node.object) });
      this.logger.debug('deleted dependent', { object: describe(node), policy });
    } catch (error) {
      if (isNotFound(error)) return;
      // Changed since the cache saw it (new owners, say): look again at what it is now.
      if (isConflict(error)) return { requeueAfterMs: CONFLICT_RETRY_MS };
      throw error;
    }
  }

  /**
   * Merge-patches metadata with the object's resourceVersion as precondition, re-reading and
   * retrying on conflicts. `change` returns undefined when nothing needs changing.
   */
  private async patchMetadata(
    node: GraphNode,
    change: (object: Readonly<KubeObject>) => Record<string, unknown> | undefined,
  ): Promise<'done' | 'gone' | 'conflict'> {
    const client = this.clientFor(node);
    if (!client) return 'gone';
    let object: Readonly<KubeObject> = node.object;
    for (let attempt = 0; ; attempt++) {
      if (object.metadata.uid !== node.uid) return 'gone';
      const metadata = change(object);
      if (metadata === undefined) return 'done';
      try {
        await client.patch(node.name, 'merge', { metadata: { ...metadata, resourceVersion: object.metadata.resourceVersion } });
        return 'done';
      } catch (error) {
        if (isNotFound(error)) return 'gone';
        if (!isConflict(error)) throw error;
        if (attempt >= MAX_CONFLICT_RETRIES) return 'conflict';
      }
      try {
        object = await client.get(node.name);
      } catch (error) {
        if (isNotFound(error)) return 'gone';
        throw error;
      }
    }
  }

  private outcome(result: 'done' | 'gone' | 'conflict'): ReconcileResult | void {
    if (result === 'conflict') return { requeueAfterMs: CONFLICT_RETRY_MS };
  }

  /** Whether an owner exists, asked of the API (coalesced per uid; absences remembered). */
  private ownerState(owner: OwnerIdentity, namespace: string | undefined): Promise<OwnerState> {
    if (this.absentOwners.get(owner.uid)) return Promise.resolve('absent');
    const pending = this.lookups.get(owner.uid);
    if (pending) return pending;
    const lookup = this.lookUp(owner, namespace).finally(() => this.lookups.delete(owner.uid));
    this.lookups.set(owner.uid, lookup);
    return lookup;
  }

  private async lookUp(owner: OwnerIdentity, namespace: string | undefined): Promise<OwnerState> {
    const resource = this.resourceFor(owner.apiVersion, owner.kind);
    // A kind this client does not know (or a namespaced owner of a cluster-scoped object):
    // never delete on its account, as Kubernetes keeps dependents of unresolvable owners.
    if (!resource || (resource.namespaced && !namespace)) return this.unresolvable(owner);
    try {
      const found = await this.ctx.api.resource(resource, resource.namespaced ? namespace : undefined).get(owner.name);
      if (found.metadata.uid === owner.uid) {
        return found.metadata.deletionTimestamp !== undefined && hasFinalizer(found, FINALIZER_FOREGROUND) ? 'deletingDependents' : 'present';
      }
    } catch (error) {
      // A kind the controllers' identity may not read (auth/rbac/bootstrap-policy.ts) is one it cannot look up.
      if (isForbidden(error)) return this.unresolvable(owner);
      if (!isNotFound(error)) throw error;
    }
    this.absentOwners.set(owner.uid, true);
    return 'absent';
  }

  private unresolvable(owner: OwnerIdentity): OwnerState {
    const kind = `${owner.apiVersion}/${owner.kind}`;
    if (!this.unknownKinds.has(kind)) {
      this.unknownKinds.add(kind);
      this.logger.warn('owner reference to a kind the garbage collector cannot look up; its dependents are kept', { kind });
    }
    return 'unknown';
  }

  private clientFor(node: GraphNode): ResourceClient | undefined {
    const resource = node.resource ?? this.resourceFor(node.object.apiVersion, node.object.kind);
    if (!resource) return undefined;
    return this.ctx.api.resource(resource, resource.namespaced ? node.namespace : undefined);
  }
}

export function garbageCollectorController(ctx: ControllerContext): Controller {
  return new GarbageCollector(ctx);
}

function resourceId(resource: ResourceRef): string {
  return `${resource.group}/${resource.plural}`;
}

function identityOf(object: Readonly<KubeObject>): OwnerIdentity {
  return { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name ?? '', uid: object.metadata.uid ?? '' };
}

function describe(node: GraphNode): string {
  return `${node.object.kind} ${node.namespace ? `${node.namespace}/` : ''}${node.name}`;
}

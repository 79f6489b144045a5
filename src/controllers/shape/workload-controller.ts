// The one shape of a workload controller, as controller-runtime's builder gives it:
// `For(ReplicaSet).Owns(Pod)`. The shape owns the informers, the work queue, start/stop (through
// the farm's runOwnedQueue), the index names, and the handlers every controller used to write
// again: an event of the primary kind enqueues its key; an event of an owned object enqueues
// the key of its controller (and of its former controller when the reference moved); an orphan
// whose labels a primary's selector matches enqueues that primary, for controllers that adopt;
// expectations count the creations and deletions the cache has seen.
// A controller extends it and keeps its reconcile and only the handlers that are truly its own;
// a controller that runs several queues (the PV binder's claims and volumes) is a ShapeGroup
// of QueueShapes.
import type { KubeObject } from '../../api/meta.js';
import {
  indexers,
  objectKey,
  WorkQueue,
  type EventHandlers,
  type Expectations,
  type Informer,
  type ReconcileResult,
  type ResourceRef,
  type RunningController,
} from '../../client/index.js';
import { jsonEqual } from '../../util/json-equal.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
import { controllerRefOf, controllerRefOfKind } from '../../api/owner-references.js';
import type { LabelSelector } from '../../api/selectors/index.js';
import { claimFromCache } from './claim.js';
import { CONTROLLER_UID_INDEX, NAMESPACE_INDEX, ORPHANS_BY_NAMESPACE, orphansByNamespace } from './indexes.js';

/** The controller an owned object's controller reference names, when it is of the primary kind. */
export interface Owner<T> {
  /** `namespace/name`: the key enqueued. */
  key: string;
  /** The uid the reference names. */
  uid: string;
  /** The owner in the cache when it is the one the reference names (Kubernetes' resolveControllerRef). */
  object: Readonly<T> | undefined;
}

/** A controller's own reactions to an owned object's events, after the shape enqueued the owners. */
export interface OwnedHandlers<O, T> {
  added?(object: Readonly<O>, owner: Owner<T> | undefined): void;
  updated?(old: Readonly<O>, object: Readonly<O>, owner: Owner<T> | undefined, oldOwner: Owner<T> | undefined): void;
  deleted?(object: Readonly<O>, owner: Owner<T> | undefined): void;
}

export interface OwnsOptions<O, T> extends OwnedHandlers<O, T> {
  /**
   * For controllers that adopt: an orphan (no controller) that appears or changes its labels
   * enqueues every primary of its namespace for which this is true.
   */
  adoptableBy?(primary: Readonly<T>, orphan: Readonly<O>): boolean;
  /**
   * Count the owned objects' creations and deletions against the owner's expectations, keyed
   * by the owner's `key` (then only an owner resolved in the cache counts, never a namesake) or
   * by its `uid`.
   */
  expectations?: { store: Expectations; by: 'key' | 'uid' };
}

export interface WorkloadControllerSpec<T extends KubeObject> {
  name: string;
  /** The primary kind: the queue's keys name objects of it. */
  resource: ResourceRef;
  workers: number;
  /**
   * Which events of the primary kind enqueue its key (controller-runtime's predicates); every
   * one by default. forget() is called on every deletion all the same.
   */
  predicates?: Predicates<T>;
}

export interface Predicates<T> {
  add?(object: Readonly<T>): boolean;
  update?(old: Readonly<T>, object: Readonly<T>): boolean;
  delete?(object: Readonly<T>): boolean;
}

export abstract class WorkloadController<T extends KubeObject> implements Controller {
  readonly name: string;
  /** The informer of the primary kind (indexed by namespace when the controller adopts). */
  readonly primary: Informer<T>;
  readonly queue = new WorkQueue<string>();
  private running: RunningController | undefined;

  constructor(
    protected readonly ctx: ControllerContext,
    private readonly spec: WorkloadControllerSpec<T>,
  ) {
    this.name = spec.name;
    this.primary = ctx.factory.informerFor<T>(spec.resource);
    const { add = () => true, update = () => true, delete: deleted = () => true } = spec.predicates ?? {};
    this.primary.addEventHandler({
      onAdd: (object) => {
        if (add(object)) this.queue.add(objectKey(object));
      },
      onUpdate: (old, object) => {
        if (update(old, object)) this.queue.add(objectKey(object));
      },
      onDelete: (object) => {
        this.forget(object);
        if (deleted(object)) this.queue.add(objectKey(object));
      },
    });
  }

  /** One pass over the primary `key` names; a thrown error retries it with back-off. */
  protected abstract reconcile(key: string): Promise<ReconcileResult | void>;

  /**
   * The primary was deleted: drop what the controller remembers of it. Called with the last
   * state seen; the key is enqueued afterwards (unless a predicate says no), so that reconcile
   * sees it gone.
   */
  protected forget(_object: Readonly<T>): void {}

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name,
      primary: this.primary,
      queue: this.queue,
      workers: this.spec.workers,
      reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.running?.stop();
  }

  /** Watches objects the primaries control: `Owns(resource)`. Returns the informer, indexed by controller uid. */
  owns<O extends KubeObject>(resource: ResourceRef, options: OwnsOptions<O, T> = {}): Informer<O> {
    const informer = this.ctx.factory.informerFor<O>(resource);
    informer.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
    if (options.adoptableBy) {
      informer.addIndexer(ORPHANS_BY_NAMESPACE, orphansByNamespace);
      this.primary.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    }
    informer.addEventHandler(this.ownedHandlers(options));
    return informer;
  }

  /**
   * The objects of an owned kind (`resource`, read from its owns() informer) that `owner`
   * controls: the owned ones its selector still matches, plus the orphans adopted now (claim.ts).
   * `filter`: only objects it is true of are claimed.
   */
  protected claim<O extends KubeObject>(
    owner: Readonly<T>,
    selector: LabelSelector,
    resource: ResourceRef,
    informer: Informer<O>,
    filter?: (object: Readonly<O>) => boolean,
  ): Promise<Readonly<O>[]> {
    return claimFromCache<O>({
      api: this.ctx.api,
      ownerResource: this.spec.resource,
      owner,
      selector,
      resource,
      informer,
      ...(filter ? { filter } : {}),
    });
  }

  /** Watches objects of another kind with handlers of the controller's own: `Watches(resource, handler)`. */
  watches<O extends KubeObject>(resource: ResourceRef, handlers: EventHandlers<O>): Informer<O> {
    const informer = this.ctx.factory.informerFor<O>(resource);
    informer.addEventHandler(handlers);
    return informer;
  }

  /** The controller of `object` when the reference names the primary kind (its group too). */
  ownerOf(object: Readonly<KubeObject>): Owner<T> | undefined {
    const ref = controllerRefOfKind(object, this.spec.resource);
    if (!ref) return undefined;
    const key = `${object.metadata.namespace}/${ref.name}`;
    const cached = this.primary.get(key);
    return { key, uid: ref.uid, object: cached?.metadata.uid === ref.uid ? cached : undefined };
  }

  private ownedHandlers<O extends KubeObject>(options: OwnsOptions<O, T>): EventHandlers<O> {
    const counted = options.expectations;
    const expectationKey = (owner: Owner<T> | undefined): string | undefined => {
      if (!counted || !owner) return undefined;
      if (counted.by === 'uid') return owner.uid;
      return owner.object ? owner.key : undefined;
    };
    return {
      onAdd: (object) => {
        const owner = this.ownerOf(object);
        const key = expectationKey(owner);
        // Seen first while terminating (say, after a restart): its deletion is what we may wait for.
        if (key !== undefined && object.metadata.deletionTimestamp) counted!.store.deletionObserved(key, objectKey(object));
        else if (key !== undefined) counted!.store.creationObserved(key);
        if (owner) this.queue.add(owner.key);
        else if (!controllerRefOf(object) && !object.metadata.deletionTimestamp) this.enqueueAdopters(object, options);
        options.added?.(object, owner);
      },
      onUpdate: (old, object) => {
        // A resync: the primaries resync themselves.
        if (old === object || old.metadata.resourceVersion === object.metadata.resourceVersion) return;
        const owner = this.ownerOf(object);
        const oldOwner = this.ownerOf(old);
        if (oldOwner && oldOwner.uid !== owner?.uid) this.queue.add(oldOwner.key);
        const key = expectationKey(owner);
        if (key !== undefined && object.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) counted!.store.deletionObserved(key, objectKey(object));
        if (owner) this.queue.add(owner.key);
        else if (
          !controllerRefOf(object) &&
          !object.metadata.deletionTimestamp &&
          (controllerRefOf(old) || !jsonEqual(old.metadata.labels ?? {}, object.metadata.labels ?? {}))
        ) {
          this.enqueueAdopters(object, options);
        }
        options.updated?.(old, object, owner, oldOwner);
      },
      onDelete: (object) => {
        const owner = this.ownerOf(object);
        const key = expectationKey(owner);
        if (key !== undefined) counted!.store.deletionObserved(key, objectKey(object));
        if (owner) this.queue.add(owner.key);
        options.deleted?.(object, owner);
      },
    };
  }

  private enqueueAdopters<O extends KubeObject>(orphan: Readonly<O>, options: OwnsOptions<O, T>): void {
    if (!options.adoptableBy) return;
    for (const primary of this.primary.byIndex(NAMESPACE_INDEX, orphan.metadata.namespace ?? '')) {
      if (options.adoptableBy(primary, orphan)) this.queue.add(objectKey(primary));
    }
  }
}

export interface QueueShapeSpec<T extends KubeObject> extends WorkloadControllerSpec<T> {
  reconcile(key: string): Promise<ReconcileResult | void>;
  forget?(object: Readonly<T>): void;
}

/** One queue of a controller that runs several (see ShapeGroup): its reconcile and forget are functions. */
export class QueueShape<T extends KubeObject> extends WorkloadController<T> {
  constructor(
    ctx: ControllerContext,
    private readonly functions: QueueShapeSpec<T>,
  ) {
    super(ctx, functions);
  }

  protected reconcile(key: string): Promise<ReconcileResult | void> {
    return this.functions.reconcile(key);
  }

  protected override forget(object: Readonly<T>): void {
    this.functions.forget?.(object);
  }
}

/** A controller of several queues, started and stopped together. */
export class ShapeGroup implements Controller {
  private readonly shapes: Controller[] = [];

  constructor(readonly name: string) {}

  protected add<S extends Controller>(shape: S): S {
    this.shapes.push(shape);
    return shape;
  }

  start(): void {
    for (const shape of this.shapes) shape.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.shapes.map((shape) => shape.stop()));
  }
}

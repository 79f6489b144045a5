// The garbage collector's picture of ownership, as Kubernetes' GraphBuilder keeps it: one node
// per uid, edges from ownerReferences (owner → dependents). An owner that is referenced but not
// (or no longer) in any cache is a *virtual* node: the collector must ask the API whether it
// exists. Nodes hold the informer's object by reference, so the graph costs a few small
// objects per cached object, and every informer event is O(owner references) to apply.
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { objectFromRef } from '../../api/owner-references.js';
import type { ResourceRef } from '../../client/index.js';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  /** Set once the API confirmed that no object with this uid exists. */
  absent = false;

  constructor(
    /** The latest object seen; for a virtual node, a stub built from an owner reference. */
    public object: Readonly<KubeObject>,
    public resource: ResourceRef | undefined,
    /** True while an informer holds the object. */
    public observed: boolean,
  ) {}

  get uid(): string {
    return this.object.metadata.uid ?? '';
  }

  get namespace(): string | undefined {
    return this.object.metadata.namespace;
  }

  get name(): string {
    return this.object.metadata.name ?? '';
  }

  /** The work-queue key: namespace-first, so a farm sharding by namespace keeps owners and dependents together. */
  get key(): string {
    return keyOfUid(this.namespace, this.uid);
  }

  get owners(): readonly OwnerReference[] {
    return this.observed ? (this.object.metadata.ownerReferences ?? []) : [];
  }

  beingDeleted(): boolean {
    return this.observed && this.object.metadata.deletionTimestamp !== undefined;
  }

  /** Deleted with propagationPolicy=Foreground: waits for its blocking dependents. */
  deletingDependents(): boolean {
    return this.beingDeleted() && hasFinalizer(this.object, FINALIZER_FOREGROUND);
  }

  /** Deleted with propagationPolicy=Orphan: its dependents lose their reference to it. */
  orphaning(): boolean {
    return this.beingDeleted() && hasFinalizer(this.object, FINALIZER_ORPHAN);
  }

  /** This node's reference to an owner, if it has one. */
  referenceTo(ownerUid: string): OwnerReference | undefined {
    return this.owners.find((ref) => ref.uid === ownerUid);
  }

  /** Dependents whose reference to this node has blockOwnerDeletion: Foreground waits for these. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((dependent) => dependent.referenceTo(this.uid)?.blockOwnerDeletion === true);
  }
}

export function keyOfUid(namespace: string | undefined, uid: string): string {
  return namespace ? `${namespace}/${uid}` : uid;
}

export function hasFinalizer(object: Readonly<KubeObject>, finalizer: string): boolean {
  return (object.metadata.finalizers ?? []).includes(finalizer);
}

/** What the collector hears from the graph; every call is cheap and only enqueues or counts. */
export interface GraphListener {
  /** The node needs a look: verify a virtual owner, delete or orphan a dependent, release a finalizer. */
  enqueue(node: GraphNode): void;
  /** The dependent no longer refers to the owner (it was deleted or its reference was removed). */
  dependentDetached(owner: GraphNode, dependent: GraphNode): void;
  /** An owner started waiting on its dependents (Foreground) or started orphaning them. */
  deletionStarted(owner: GraphNode, policy: 'Foreground' | 'Orphan'): void;
  /** An owner that still has dependents is gone from its informer. */
  ownerDeleted(owner: GraphNode): void;
}

export class OwnershipGraph {
  private readonly nodes = new Map<string, GraphNode>();

  constructor(private readonly listener: GraphListener) {}

  get size(): number {
    return this.nodes.size;
  }

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  /** An informer added or updated the object. */
  upsert(object: Readonly<KubeObject>, resource: ResourceRef): void {
    const uid = object.metadata.uid;
    if (!uid) return;
    const node = this.nodes.get(uid);
    if (!node || !node.observed) {
      const fresh = node ?? new GraphNode(object, resource, true);
      if (!node) this.nodes.set(uid, fresh);
      fresh.object = object;
      fresh.resource = resource;
      fresh.observed = true;
      fresh.absent = false;
      this.attach(fresh, fresh.owners);
      this.transitions(fresh, undefined);
      return;
    }
    const before = node.object;
    if (before === object) return; // a resync: nothing changed
    node.object = object;
    this.rewire(node, before.metadata.ownerReferences ?? [], node.owners);
    this.transitions(node, before);
  }

  /** An informer saw the object go. */
  remove(object: Readonly<KubeObject>): void {
    const uid = object.metadata.uid;
    const node = uid === undefined ? undefined : this.nodes.get(uid);
    if (!node || !node.observed) return;
    const owners = node.owners;
    node.object = object;
    node.observed = false;
    for (const ref of owners) this.detach(node, ref.uid);
    if (node.dependents.size === 0) {
      this.nodes.delete(node.uid);
      return;
    }
    // Its dependents still point here: keep it as a virtual node until they let go, and have
    // it confirmed absent, so that dependents still arriving from a lagging cache are seen.
    this.listener.ownerDeleted(node);
    this.listener.enqueue(node);
    for (const dependent of node.dependents) this.listener.enqueue(dependent);
  }

  private rewire(node: GraphNode, before: readonly OwnerReference[], after: readonly OwnerReference[]): void {
    if (before.length === 0 && after.length === 0) return;
    const next = new Map(after.map((ref) => [ref.uid, ref]));
    for (const ref of before) {
      const now = next.get(ref.uid);
      if (!now) {
        this.detach(node, ref.uid);
        continue;
      }
      // An owner waiting on blocking dependents may be released by this one unblocking.
      const owner = this.nodes.get(ref.uid);
      if (ref.blockOwnerDeletion === true && now.blockOwnerDeletion !== true && owner?.deletingDependents()) this.listener.enqueue(owner);
      next.delete(ref.uid);
    }
    this.attach(node, [...next.values()]);
  }

  private attach(node: GraphNode, refs: readonly OwnerReference[]): void {
    for (const ref of refs) {
      let owner = this.nodes.get(ref.uid);
      if (!owner) {
        owner = new GraphNode(objectFromRef(ref, node.namespace), undefined, false);
        this.nodes.set(ref.uid, owner);
        // Not in any cache (yet): ask the API whether it exists.
        this.listener.enqueue(owner);
      }
      owner.dependents.add(node);
      if (owner.absent || owner.deletingDependents()) this.listener.enqueue(node);
    }
  }

  private detach(dependent: GraphNode, ownerUid: string): void {
    const owner = this.nodes.get(ownerUid);
    if (!owner || !owner.dependents.delete(dependent)) return;
    this.listener.dependentDetached(owner, dependent);
    if (owner.deletingDependents()) this.listener.enqueue(owner);
    if (!owner.observed && owner.dependents.size === 0) this.nodes.delete(ownerUid);
  }

  /** Kubernetes' processTransitions: an owner starts orphaning, or starts waiting on its dependents. */
  private transitions(node: GraphNode, before: Readonly<KubeObject> | undefined): void {
    if (!node.beingDeleted()) return;
    const was = (finalizer: string) => before?.metadata.deletionTimestamp !== undefined && hasFinalizer(before, finalizer);
    if (node.orphaning() && !was(FINALIZER_ORPHAN)) {
      this.listener.deletionStarted(node, 'Orphan');
      this.listener.enqueue(node);
      return;
    }
    if (node.deletingDependents() && !was(FINALIZER_FOREGROUND)) {
      this.listener.deletionStarted(node, 'Foreground');
      for (const dependent of node.dependents) this.listener.enqueue(dependent);
      this.listener.enqueue(node);
    }
  }
}

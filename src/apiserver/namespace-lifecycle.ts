// Empties and removes namespaces marked for deletion: every object in them is deleted (honouring
// each object's own finalizers and grace periods), then the `kubernetes` finalizer is released
// and the namespace itself goes. Runs inside the server, like Kubernetes' namespace controller.
//
// Every API server on a shared store runs it, with no Lease: each step is safe to repeat (a
// delete of what is gone is ignored) and the last write, releasing the finalizer or deleting
// the namespace, carries the namespace's revision, so of two servers one lands and the other
// conflicts and looks again a second later.
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { Watch } from '../storage/store.js';
import { namespaceFinalizers } from './registry/deletion.js';
import type { ObjectRegistry, WriteOptions } from './registry/object-registry.js';
import { RetryingPasses } from './retrying-passes.js';

/** The finalize write, as Kubernetes' namespace controller makes it (a PUT to namespaces/finalize). */
const FINALIZE: WriteOptions = { dryRun: false, fieldManager: 'namespace-controller', fieldValidation: 'Ignore', subresource: 'finalize' };

export class NamespaceLifecycle {
  private watch: Watch | undefined;
  private readonly passes = new RetryingPasses((name) => this.finalize(name), 'namespace lifecycle');

  constructor(
    private readonly registry: ObjectRegistry,
    /** Every kind that may hold objects in a namespace, custom resources included, as of now. */
    private readonly defs: () => readonly ResourceDefinition[],
    private readonly namespaceDef: ResourceDefinition,
  ) {}

  async start(): Promise<void> {
    const namespaces = this.registry.collection(this.namespaceDef);
    const { items, revision } = await namespaces.list();
    for (const ns of items) if (ns.metadata.deletionTimestamp) this.passes.add(ns.metadata.name!);
    this.watch = namespaces.watch({ fromRevision: revision }, (event) => {
      if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) this.passes.add(event.object.metadata.name!);
    });
  }

  stop(): void {
    this.passes.stop();
    this.watch?.stop();
  }

  /** One pass over a terminating namespace; true when it is gone. */
  private async finalize(name: string): Promise<boolean> {
    const namespace = await this.registry.find(this.namespaceDef, undefined, name);
    if (!namespace || !namespace.metadata.deletionTimestamp) return true;
    let remaining = 0;
    for (const def of this.defs()) {
      if (!def.namespaced) continue;
      const { items } = await this.registry.collection(def, name).list();
      remaining += items.length;
      for (const item of items) {
        if (item.metadata.deletionTimestamp) continue;
        await this.registry.delete(def, name, item.metadata.name!, { dryRun: false }).catch(ignoreNotFound);
      }
    }
    if (remaining > 0) return false;
    await this.release(namespace);
    return true;
  }

  /**
   * Takes the `kubernetes` finalizer out through namespaces/finalize, carrying the read
   * resourceVersion (a write that raced it is a 409, and the next pass looks again). With no
   * finalizer left, the registry removes the namespace in that same update.
   */
  private async release(namespace: KubeObject): Promise<void> {
    const name = namespace.metadata.name!;
    const held = namespaceFinalizers(namespace);
    if (!held.includes('kubernetes')) {
      // Nothing of ours to release (made without it, or released by another server that lost the
      // delete): once nothing else holds it, a delete with the read revision removes it.
      if (held.length > 0) return;
      const preconditions = { resourceVersion: namespace.metadata.resourceVersion ?? '' };
      await this.registry.delete(this.namespaceDef, undefined, name, { dryRun: false, preconditions });
      return;
    }
    const finalizers = held.filter((f) => f !== 'kubernetes');
    const released: KubeObject = { ...namespace, spec: { ...(namespace['spec'] as object | undefined), finalizers } };
    await this.registry.update(this.namespaceDef, undefined, name, released, FINALIZE);
  }
}

function ignoreNotFound(error: unknown): void {
  if ((error as { code?: number }).code !== 404) throw error;
}

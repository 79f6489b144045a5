// Empties and removes namespaces marked for deletion: every object in them is deleted (honouring
// each object's own finalizers and grace periods), then the `kubernetes` finalizer is released
// and the namespace itself goes. Runs inside the server, like Kubernetes' namespace controller.
//
// Every API server on a shared store runs it, with no Lease: each step is safe to repeat (a
// delete of what is gone is ignored) and the last write, releasing the finalizer or deleting
// the namespace, carries the namespace's revision, so of two servers one lands and the other
// conflicts and looks again a second later.
import { isObject, type KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { Store, Watch } from '../storage/store.js';
import { keyFor, prefixFor } from './registry/keys.js';
import type { ObjectRegistry } from './registry/object-registry.js';
import { RetryingPasses } from './retrying-passes.js';

export class NamespaceLifecycle {
  private watch: Watch | undefined;
  private readonly passes = new RetryingPasses(
    (name) => this.finalize(name),
    (name, error) => console.error(`namespace lifecycle: ${name}: ${(error as Error).message}`),
  );

  constructor(
    private readonly registry: ObjectRegistry,
    /** Every kind that may hold objects in a namespace, custom resources included, as of now. */
    private readonly defs: () => readonly ResourceDefinition[],
    private readonly namespaceDef: ResourceDefinition,
  ) {}

  private get store(): Store {
    return this.registry.store;
  }

  async start(): Promise<void> {
    const { items, revision } = await this.store.list({ prefix: prefixFor(this.namespaceDef) });
    for (const ns of items) if (ns.metadata.deletionTimestamp) this.passes.add(ns.metadata.name!);
    this.watch = this.store.watch({ prefix: prefixFor(this.namespaceDef), fromRevision: revision }, (event) => {
      if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) this.passes.add(event.object.metadata.name!);
    });
  }

  stop(): void {
    this.passes.stop();
    this.watch?.stop();
  }

  /** One pass over a terminating namespace; true when it is gone. */
  private async finalize(name: string): Promise<boolean> {
    const key = keyFor(this.namespaceDef, undefined, name);
    const namespace = await this.store.get(key);
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
    await this.release(key, namespace);
    return true;
  }

  private async release(key: string, namespace: KubeObject): Promise<void> {
    const spec = isObject(namespace['spec']) ? namespace['spec'] : {};
    const finalizers = Array.isArray(spec['finalizers']) ? spec['finalizers'].filter((f) => f !== 'kubernetes') : [];
    const revision = Number(namespace.metadata.resourceVersion);
    if (finalizers.length === 0 && (namespace.metadata.finalizers ?? []).length === 0) {
      await this.store.delete(key, { expectedRevision: revision });
      return;
    }
    const updated = namespace; // store.get returns a fresh object
    updated['spec'] = { ...spec, finalizers };
    await this.store.update(key, updated, { expectedRevision: revision });
  }
}

function ignoreNotFound(error: unknown): void {
  if ((error as { code?: number }).code !== 404) throw error;
}

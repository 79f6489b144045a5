// The registry's reads: the store as each kind sees it (a converting view for kinds stored in
// another form), one object, and a kind's collection to list and watch. Handlers read through
// these, never through the store, so a kind's keys and conversion are decided here only.
import type { KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Store } from '../../storage/store.js';
import { notFound, type ResourceRef } from '../errors.js';
import { collectionOf, type Collection } from './collection.js';
import { convertingStore } from './converting-store.js';
import { keyFor, prefixFor } from './keys.js';

export class ObjectReader {
  private readonly views = new WeakMap<ResourceDefinition, Store>();

  constructor(readonly store: Store) {}

  /** The store as `def` sees it: the shared one, or, for a kind stored in another form, its converting view. */
  storeFor(def: ResourceDefinition): Store {
    const form = def.storedForm;
    if (!form) return this.store;
    let view = this.views.get(def);
    if (!view) {
      const keys = form.storedAs ? { served: prefixFor(def), stored: prefixFor(form.storedAs) } : undefined;
      view = convertingStore(this.store, { toStored: form.toStored, fromStored: form.fromStored, ...(keys ? { keys } : {}) });
      this.views.set(def, view);
    }
    return view;
  }

  /** Reads (list, watch) of the kind's objects in one namespace, or in all when none is given. */
  collection(def: ResourceDefinition, namespace?: string): Collection {
    return collectionOf(this.storeFor(def), prefixFor(def, namespace));
  }

  /** The newest revision written; revisions are the whole store's, not a kind's. */
  currentRevision(): Promise<number> {
    return this.store.currentRevision();
  }

  async get(def: ResourceDefinition, namespace: string | undefined, name: string): Promise<KubeObject> {
    const object = await this.find(def, namespace, name);
    if (!object) throw notFound(ref(def, name));
    return object;
  }

  /** get(), or undefined when there is no such object (a fresh copy: the caller may change it). */
  find(def: ResourceDefinition, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    return this.storeFor(def).get(keyFor(def, namespace, name));
  }

  /** get() as the stored JSON's UTF-8 bytes, when the store can read them without parsing. */
  async getRaw(def: ResourceDefinition, namespace: string | undefined, name: string): Promise<Uint8Array | undefined> {
    const store = this.storeFor(def);
    if (!store.getRaw) return undefined;
    const bytes = await store.getRaw(keyFor(def, namespace, name));
    if (!bytes) throw notFound(ref(def, name));
    return bytes;
  }
}

export function ref(def: ResourceDefinition, name?: string): ResourceRef {
  const result: ResourceRef = { group: def.group, plural: def.plural };
  if (name !== undefined) result.name = name;
  return result;
}

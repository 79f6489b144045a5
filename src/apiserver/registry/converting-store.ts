// The store as a kind sees it whose stored form differs from what it serves: each object is
// converted on the way in and on the way out, and the kind's keys may live under another
// resource's (events.k8s.io/v1 Events are core/v1 Events in storage, as in Kubernetes; a custom
// resource's served versions share the storage version's objects). Preconditions, revisions and
// continue tokens pass through unchanged. The raw fast paths are left out: every object read is
// converted.
import type { KubeObject } from '../../api/meta.js';
import type { Store, StoreEvent } from '../../storage/store.js';

export interface Conversion {
  /** The object as stored, from the served form. */
  toStored(object: KubeObject): KubeObject;
  /** The served form of a stored object: a new object (the store may share the one it returns with watchers). */
  fromStored(object: KubeObject): KubeObject;
  /** Served keys under `served` are stored under `stored` (both end with '/'); none: the same keys. */
  keys?: { served: string; stored: string };
}

export function convertingStore(store: Store, form: Conversion): Store {
  const swap = (key: string, from: string, to: string) => (key.startsWith(from) ? to + key.slice(from.length) : key);
  const stored = (key: string) => (form.keys ? swap(key, form.keys.served, form.keys.stored) : key);
  const served = (key: string) => (form.keys ? swap(key, form.keys.stored, form.keys.served) : key);
  const out = form.fromStored;
  const event = (e: StoreEvent): StoreEvent => {
    const converted: StoreEvent = { type: e.type, key: served(e.key), revision: e.revision, object: out(e.object) };
    if (e.prevObject) converted.prevObject = out(e.prevObject);
    return converted;
  };
  const view: Store = {
    get: async (key) => {
      const object = await store.get(stored(key));
      return object && out(object);
    },
    list: async (options) => {
      const result = await store.list({ ...options, prefix: stored(options.prefix) });
      return { ...result, items: result.items.map(out) };
    },
    create: async (key, object) => out(await store.create(stored(key), form.toStored(object))),
    update: async (key, object, preconditions) => out(await store.update(stored(key), form.toStored(object), preconditions)),
    delete: async (key, preconditions) => out(await store.delete(stored(key), preconditions)),
    watch: (options, onEvent, onError) => store.watch({ ...options, prefix: stored(options.prefix) }, (e) => onEvent(event(e)), onError),
    currentRevision: () => store.currentRevision(),
    oldestRevision: () => store.oldestRevision(),
    // The view owns nothing: closing the server closes the store itself.
    close: async () => undefined,
  };
  if (store.shared !== undefined) Object.assign(view, { shared: store.shared });
  return view;
}

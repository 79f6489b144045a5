// The store as one served version of a custom resource sees it. Objects are stored in the CRD's
// storage version; with conversion None a version differs only in apiVersion, so objects going
// in are rewritten to the storage version and objects coming out to this one, then defaulted
// with this version's schema (Kubernetes defaults on read from storage too). The raw fast paths
// are left out: every object read is converted.
import type { KubeObject } from '../../api/meta.js';
import type { Store, StoreEvent } from '../../storage/store.js';

export interface VersionView {
  /** group/version of the served version. */
  apiVersion: string;
  /** group/version of the storage version. */
  storageApiVersion: string;
  /** Defaults of the served version's schema, applied in place. */
  applyDefaults(object: KubeObject): void;
}

export function versionStore(store: Store, view: VersionView): Store {
  const out = (object: KubeObject): KubeObject => {
    // A copy: the store may share the object (watch events go to every watcher, and the JSON it
    // wrote is remembered by object).
    const copy = structuredClone(object);
    copy.apiVersion = view.apiVersion;
    view.applyDefaults(copy);
    return copy;
  };
  const into = (object: KubeObject): KubeObject => ({ ...object, apiVersion: view.storageApiVersion });
  const event = (e: StoreEvent): StoreEvent => {
    const converted: StoreEvent = { type: e.type, key: e.key, revision: e.revision, object: out(e.object) };
    if (e.prevObject) converted.prevObject = out(e.prevObject);
    return converted;
  };
  const view_: Store = {
    get: async (key) => {
      const object = await store.get(key);
      return object && out(object);
    },
    list: async (options) => {
      const result = await store.list(options);
      return { ...result, items: result.items.map(out) };
    },
    create: async (key, object) => out(await store.create(key, into(object))),
    update: async (key, object, preconditions) => out(await store.update(key, into(object), preconditions)),
    delete: async (key, preconditions) => out(await store.delete(key, preconditions)),
    watch: (options, onEvent, onError) => store.watch(options, (e) => onEvent(event(e)), onError),
    currentRevision: () => store.currentRevision(),
    oldestRevision: () => store.oldestRevision(),
    // The view owns nothing: closing the server closes the store itself.
    close: async () => undefined,
  };
  if (store.shared !== undefined) Object.assign(view_, { shared: store.shared });
  return view_;
}

// How one served version of a custom resource is stored. Objects are stored in the CRD's storage
// version; with conversion None a version differs only in apiVersion, so objects going in are
// rewritten to the storage version and objects coming out to this one, then defaulted with this
// version's schema (Kubernetes defaults on read from storage too).
import type { KubeObject } from '../../api/meta.js';
import type { StoredForm } from '../../api/resource.js';

export interface VersionView {
  /** group/version of the served version. */
  apiVersion: string;
  /** group/version of the storage version. */
  storageApiVersion: string;
  /** Defaults of the served version's schema, applied in place. */
  applyDefaults(object: KubeObject): void;
}

export function versionForm(view: VersionView): StoredForm {
  return {
    toStored: (object) => ({ ...object, apiVersion: view.storageApiVersion }),
    fromStored(object) {
      // A copy: the store may share the object (watch events go to every watcher, and the JSON
      // it wrote is remembered by object).
      const copy = structuredClone(object);
      copy.apiVersion = view.apiVersion;
      view.applyDefaults(copy);
      return copy;
    },
  };
}

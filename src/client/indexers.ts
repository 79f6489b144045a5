// Index functions controllers share. Passing the same function under the same name lets many
// consumers of one shared informer add it without conflict.
import type { KubeObject } from '../api/meta.js';
import { controllerRefOf } from '../api/owner-references.js';
import type { IndexFunc } from './object-cache.js';

const byNamespace: IndexFunc<KubeObject> = (object) => [object.metadata.namespace ?? ''];

/** Pods by spec.nodeName; pods not yet bound sit under '' (what the scheduler wants). */
const byNodeName: IndexFunc<KubeObject> = (object) => {
  const spec = object['spec'] as { nodeName?: unknown } | undefined;
  return [typeof spec?.nodeName === 'string' ? spec.nodeName : ''];
};

/** Every owner's uid (garbage collection follows all owners, not only the controller). */
const byOwnerUid: IndexFunc<KubeObject> = (object) => (object.metadata.ownerReferences ?? []).map((ref) => ref.uid);

/** The managing controller's uid: how a ReplicaSet finds the pods it owns. */
const byControllerUid: IndexFunc<KubeObject> = (object) => {
  const owner = controllerRefOf(object);
  return owner ? [owner.uid] : [];
};

export const indexers = {
  namespace: byNamespace,
  nodeName: byNodeName,
  ownerUid: byOwnerUid,
  controllerUid: byControllerUid,
} as const;

const labelIndexers = new Map<string, IndexFunc<KubeObject>>();

/** Objects by the value of one label; the same function per label key, so it can be shared. */
export function byLabel(labelKey: string): IndexFunc<KubeObject> {
  let fn = labelIndexers.get(labelKey);
  if (!fn) {
    fn = (object) => {
      const value = object.metadata.labels?.[labelKey];
      return value === undefined ? [] : [value];
    };
    labelIndexers.set(labelKey, fn);
  }
  return fn;
}

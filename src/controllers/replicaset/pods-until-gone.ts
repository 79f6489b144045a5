// Pods a controller remembers by uid until they are gone from the API. Gone is read from the
// pods' informer cache by the reconcile pass, not learnt from a delete handler: a pod the cache
// no longer holds (under its key, with that uid) has had its deletion delivered, and nothing more
// will be heard of it.
import { objectKey } from '../../client/index.js';
import type { Pod } from '../../api/core/index.js';

/** Whether the cache still holds the pod `key` names with this uid. */
export type InCache = (key: string, uid: string) => boolean;

export class PodsUntilGone {
  /** Uid → the pod's `namespace/name`, where the cache is asked for it. */
  private readonly keys = new Map<string, string>();

  add(pod: Readonly<Pod>): void {
    const uid = pod.metadata.uid;
    if (uid) this.keys.set(uid, objectKey(pod));
  }

  has(uid: string): boolean {
    return this.keys.has(uid);
  }

  delete(uid: string): void {
    this.keys.delete(uid);
  }

  /** Forgets the pods the cache no longer holds. */
  prune(inCache: InCache): void {
    for (const [uid, key] of this.keys) if (!inCache(key, uid)) this.keys.delete(uid);
  }
}

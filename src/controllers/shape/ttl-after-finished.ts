// Kubernetes' TTL-after-finished, for any kind of finished workload (Jobs, training jobs): once
// its TTL has passed since it finished, the object is deleted with propagationPolicy Background.
// Before deleting, it is read afresh, since its TTL may have changed since the cache saw it, and
// the delete carries the fresh uid and resourceVersion, so a change meanwhile means a look again.
import type { KubeObject } from '../../api/meta.js';
import { isConflict, isNotFound, type ResourceClient } from '../../client/index.js';

/**
 * Deletes `object` once `remainingMs` (ms until it expires; undefined: it never will) says it
 * has expired. Returns the ms to wait before looking again (0 when it changed meanwhile),
 * 'deleted', or undefined when it never expires or is gone.
 */
export async function deleteAfterTtl<T extends KubeObject>(
  client: ResourceClient<T>,
  object: Readonly<T>,
  remainingMs: (object: Readonly<T>) => number | undefined,
): Promise<number | 'deleted' | undefined> {
  const left = remainingMs(object);
  if (left === undefined || left > 0) return left;
  try {
    const fresh = await client.get(object.metadata.name!);
    if (fresh.metadata.uid !== object.metadata.uid || fresh.metadata.deletionTimestamp) return undefined;
    const freshLeft = remainingMs(fresh);
    if (freshLeft === undefined || freshLeft > 0) return freshLeft;
    await client.delete(fresh.metadata.name!, {
      propagationPolicy: 'Background',
      preconditions: { uid: fresh.metadata.uid!, resourceVersion: fresh.metadata.resourceVersion! },
    });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    if (isConflict(error)) return 0;
    throw error;
  }
  return 'deleted';
}

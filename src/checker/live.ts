// Live reads and guarded writes the checks and repairs share. Every write names the uid it was
// decided on, so an object deleted and re-created under the same name is never touched.
import type { KubeObject } from '../api/meta.js';
import { isConflict, isNotFound, resourceForKind, type ApiClient, type ResourceRef } from '../client/index.js';
import type { ObjectRef } from './types.js';

/** The annotation a nudge writes: any change makes the controllers watching the object look again. */
export const NUDGE_ANNOTATION = 'drover.dev/data-check-nudge';

/** The object as stored now, or undefined when it is gone (or replaced by one with another uid). */
export async function liveObject(api: ApiClient, ref: ResourceRef, namespace: string | undefined, name: string, uid?: string): Promise<KubeObject | undefined> {
  try {
    const object = await api.resource(ref, namespace).get(name);
    return uid === undefined || object.metadata.uid === uid ? object : undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** liveObject for a finding's object; undefined also when its kind is not one the client knows. */
export async function liveRef(api: ApiClient, ref: ObjectRef): Promise<KubeObject | undefined> {
  const resource = resourceForKind(ref.apiVersion, ref.kind);
  return resource ? liveObject(api, resource, ref.namespace, ref.name, ref.uid) : undefined;
}

/**
 * Touches the object's nudge annotation: its controllers reconcile it again. The write carries
 * the resourceVersion of a fresh read of the same uid; a conflict means the object changed
 * meanwhile, which has re-triggered its controllers already.
 */
export async function nudge(api: ApiClient, ref: ObjectRef): Promise<'repaired' | 'resolved'> {
  const resource = resourceForKind(ref.apiVersion, ref.kind);
  const current = resource && (await liveObject(api, resource, ref.namespace, ref.name, ref.uid));
  if (!resource || !current) return 'resolved';
  const patch = { metadata: { resourceVersion: current.metadata.resourceVersion, annotations: { [NUDGE_ANNOTATION]: new Date().toISOString() } } };
  try {
    await api.resource(resource, ref.namespace).patch(ref.name, 'merge', patch);
    return 'repaired';
  } catch (error) {
    if (isNotFound(error) || isConflict(error)) return 'resolved';
    throw error;
  }
}

/** Deletes the object if it is still the one the finding saw. */
export async function deleteIfSame(api: ApiClient, ref: ObjectRef, gracePeriodSeconds?: number): Promise<'repaired' | 'resolved'> {
  const resource = resourceForKind(ref.apiVersion, ref.kind);
  if (!resource) return 'resolved';
  try {
    const options: { preconditions: { uid?: string }; gracePeriodSeconds?: number } = { preconditions: { uid: ref.uid } };
    if (gracePeriodSeconds !== undefined) options.gracePeriodSeconds = gracePeriodSeconds;
    await api.resource(resource, ref.namespace).delete(ref.name, options);
    return 'repaired';
  } catch (error) {
    if (isNotFound(error) || isConflict(error)) return 'resolved';
    throw error;
  }
}

// The index names the workload controllers share on their informers. One name per index
// function: every controller that adds an index under a name adds the same function, so
// controllers sharing one informer never conflict.
import type { KubeObject } from '../../api/meta.js';
import { controllerRefOf } from '../../api/owner-references.js';

/** Objects by the uid of their controller (the owner reference with controller: true). */
export const CONTROLLER_UID_INDEX = 'controllerUid';
/** Objects by namespace: the primaries an orphan could be adopted by. */
export const NAMESPACE_INDEX = 'namespace';
/** Objects without a controller, by namespace: where a controller looks for orphans to adopt. */
export const ORPHANS_BY_NAMESPACE = 'drover.dev/orphans-by-namespace';

export function orphansByNamespace(object: Readonly<KubeObject>): readonly string[] {
  return controllerRefOf(object) === undefined ? [object.metadata.namespace ?? ''] : [];
}

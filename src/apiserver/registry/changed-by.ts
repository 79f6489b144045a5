// Who last changed a workload's spec, kept by the API server in the annotation
// drover.dev/changed-by, so that the Transaction a controller opens for the change (a rollout,
// a scale) can name the user who caused it. The server owns the annotation as it owns
// metadata.generation: it is set to the writing user when a write changes the spec (generation
// moves), and otherwise carried over from the stored object, whatever the client sent, so no
// client can put another user's name on its change.
import type { KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { ANNOTATION_CHANGED_BY } from '../../api/transaction-operations.js';

export { ANNOTATION_CHANGED_BY };

/** The workloads controllers record Transactions for: only these carry the annotation. */
const TRACKED = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/daemonsets',
  'apps/statefulsets',
  'batch/jobs',
  '/replicationcontrollers',
  'kubeflow.org/pytorchjobs',
  'kubeflow.org/tfjobs',
]);

export function tracksChanges(def: ResourceDefinition): boolean {
  return TRACKED.has(`${def.group}/${def.plural}`);
}

/**
 * Sets or carries over the annotation on an object about to be stored. `old` is the stored
 * object (undefined on create); `user` the writer's name (undefined: a write from inside the
 * server, which changes nothing here).
 */
export function stampChangedBy(def: ResourceDefinition, object: KubeObject, old: KubeObject | undefined, user: string | undefined): void {
  if (!tracksChanges(def)) return;
  const previous = old?.metadata.annotations?.[ANNOTATION_CHANGED_BY];
  // A status write keeps generation; a scale moves it, and counts (kubectl scale is a change).
  const specChanged = !old || object.metadata.generation !== old.metadata.generation;
  const value = specChanged && user ? user : previous;
  const annotations = object.metadata.annotations;
  if (value === undefined) {
    if (annotations && ANNOTATION_CHANGED_BY in annotations) {
      delete annotations[ANNOTATION_CHANGED_BY];
      if (Object.keys(annotations).length === 0) delete object.metadata.annotations;
    }
    return;
  }
  object.metadata.annotations = { ...annotations, [ANNOTATION_CHANGED_BY]: value };
}

// How many pods a disruption budget expects: the sum of the desired replicas of the controllers
// of its pods, each controller counted once, as Kubernetes' disruption controller finds them. A
// ReplicaSet owned by a Deployment counts as the Deployment (its rollouts come and go); UIDs
// must match so a controller recreated under the same name is not mistaken for the old one.
// A StatefulSet's or a ReplicationController's pods count under it; a DaemonSet's or a Job's
// find no controller (Kubernetes has no finder for those either).
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { parseApiVersion } from '../../api/group-version.js';
import { controllerRefOf } from '../../api/owner-references.js';
import type { Informer } from '../../client/index.js';

type Lookup = Pick<Informer<KubeObject>, 'getByName'>;

export interface ScaleSources {
  replicaSets: Lookup;
  deployments: Lookup;
  statefulSets: Lookup;
  replicationControllers: Lookup;
}

/** The controller of a pod that cannot be found, and why the budget cannot be computed. */
export class NoControllerError extends Error {
  constructor(podName: string) {
    super(`found no controllers for pod "${podName}"`);
  }
}

const groupOf = (ref: OwnerReference) => parseApiVersion(ref.apiVersion).group;

function replicasOf(object: Readonly<KubeObject>): number {
  const replicas = (object['spec'] as { replicas?: unknown } | undefined)?.replicas;
  // Defaulting sets 1 when omitted.
  return typeof replicas === 'number' ? replicas : 1;
}

function owned(lookup: Lookup, namespace: string | undefined, ref: OwnerReference): Readonly<KubeObject> | undefined {
  const object = lookup.getByName(namespace, ref.name);
  return object && object.metadata.uid === ref.uid ? object : undefined;
}

/** The uid and desired replicas of the controller a pod counts under, if one of a supported kind. */
function scaleOfController(sources: ScaleSources, pod: Readonly<KubeObject>, ref: OwnerReference): { uid: string; replicas: number } | undefined {
  const namespace = pod.metadata.namespace;
  const direct =
    ref.kind === 'StatefulSet' && groupOf(ref) === 'apps'
      ? sources.statefulSets
      : ref.kind === 'ReplicationController' && groupOf(ref) === ''
        ? sources.replicationControllers
        : undefined;
  if (direct) {
    const controller = owned(direct, namespace, ref);
    return controller ? { uid: controller.metadata.uid!, replicas: replicasOf(controller) } : undefined;
  }
  if (ref.kind !== 'ReplicaSet' || !['apps', 'extensions'].includes(groupOf(ref))) return undefined;
  const rs = owned(sources.replicaSets, namespace, ref);
  if (!rs) return undefined;
  const rsController = controllerRefOf(rs);
  if (rsController?.kind === 'Deployment') {
    const deployment = owned(sources.deployments, namespace, rsController);
    return deployment ? { uid: deployment.metadata.uid!, replicas: replicasOf(deployment) } : undefined;
  }
  return { uid: rs.metadata.uid!, replicas: replicasOf(rs) };
}

/**
 * The expected pod count of `pods` and the names of those without a controller (ignored, as
 * Kubernetes does, with a warning). Throws NoControllerError for a controller it cannot size.
 */
export function expectedScale(sources: ScaleSources, pods: readonly Readonly<KubeObject>[]): { expected: number; unmanaged: string[] } {
  // By the pod's controller (a ReplicaSet), the controller it counts under (maybe its Deployment).
  const resolved = new Map<string, string>();
  const replicasByController = new Map<string, number>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerRefOf(pod);
    if (!ref) {
      unmanaged.push(pod.metadata.name ?? '');
      continue;
    }
    if (resolved.has(ref.uid)) continue;
    const scale = scaleOfController(sources, pod, ref);
    if (!scale) throw new NoControllerError(pod.metadata.name ?? '');
    resolved.set(ref.uid, scale.uid);
    replicasByController.set(scale.uid, scale.replicas);
  }
  let expected = 0;
  for (const replicas of replicasByController.values()) expected += replicas;
  return { expected, unmanaged };
}

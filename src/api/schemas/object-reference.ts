// core/v1 references to other objects.
import { named, str, struct } from './builders.js';

const CORE = 'io.k8s.api.core.v1';

export const LocalObjectReference = named(
  `${CORE}.LocalObjectReference`,
  struct(
    'Names an object in the same namespace.',
    {
      name: str('Name of the referent.'),
    },
    [],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const ObjectReference = named(
  `${CORE}.ObjectReference`,
  struct(
    'A reference to an API object, or to a part of one (fieldPath).',
    {
      kind: str('Kind of the referent, e.g. Pod.'),
      namespace: str('Namespace of the referent.'),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
      apiVersion: str('API version of the referent.'),
      resourceVersion: str('resourceVersion of the referent the reference was made at.'),
      fieldPath: str('For a part of an object: its path, e.g. spec.containers{web} for one container of a pod.'),
    },
    [],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

// autoscaling/v1 Scale: the body of the /scale subresource of Deployments and ReplicaSets.
import { field, int32, named, str, struct } from './builders.js';
import { kindSchema } from './meta.js';

const AUTOSCALING = 'io.k8s.api.autoscaling.v1';

export const ScaleSchema = kindSchema(
  { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  'The scaling request (desired replicas) and observed scale of a resource.',
  {
    spec: field(
      named(
        `${AUTOSCALING}.ScaleSpec`,
        struct('Desired scale.', {
          replicas: int32('Desired number of instances of the scaled object.', { minimum: 0 }),
        }),
      ),
      'Desired scale of the object.',
    ),
    status: field(
      named(
        `${AUTOSCALING}.ScaleStatus`,
        struct(
          'Observed scale.',
          {
            replicas: int32('Actual number of observed instances.'),
            selector: str('Label query over the pods counted in replicas, in the string form of label selectors (e.g. "app=web,tier in (a,b)").'),
          },
          ['replicas'],
        ),
      ),
      'Current status of the scale. Read-only.',
    ),
  },
);

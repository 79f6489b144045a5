// core/v1 LimitRange and ResourceQuota: per-namespace bounds on what containers and pods ask
// for, and on how much a namespace may hold in all.
import { atomicList, enumStr, field, named, resourceList, str, stringList, struct } from './builders.js';
import { kindSchema } from './meta.js';

const CORE = 'io.k8s.api.core.v1';

const LimitRangeItem = named(
  `${CORE}.LimitRangeItem`,
  struct(
    'Bounds (and, for containers, defaults) on one kind of object.',
    {
      type: str('What the item bounds: Container, Pod or PersistentVolumeClaim.'),
      max: resourceList('Largest amount of each resource an object of this type may use (limit for containers).'),
      min: resourceList('Smallest amount of each resource an object of this type must ask for (request for containers).'),
      default: resourceList('Limit a container gets for each resource it sets no limit for.'),
      defaultRequest: resourceList('Request a container gets for each resource it sets no request for; defaults to `default`.'),
      maxLimitRequestRatio: resourceList('Largest ratio of limit to request for each resource.'),
    },
    ['type'],
  ),
);

export const LimitRangeSchema = kindSchema(
  { group: '', version: 'v1', kind: 'LimitRange' },
  'Per-object bounds and defaults for the compute resources of containers and pods in one namespace.',
  {
    spec: field(
      named(
        `${CORE}.LimitRangeSpec`,
        struct(
          'The limits a LimitRange enforces.',
          {
            limits: atomicList('The bounds, one item per type of object.', LimitRangeItem),
          },
          ['limits'],
        ),
      ),
      'The limits this LimitRange enforces.',
    ),
  },
);

const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];

const ScopedResourceSelectorRequirement = named(
  `${CORE}.ScopedResourceSelectorRequirement`,
  struct(
    'A scope and how objects must relate to it.',
    {
      scopeName: enumStr('The scope the requirement is about.', QUOTA_SCOPES),
      operator: enumStr('In, NotIn, Exists or DoesNotExist.', ['In', 'NotIn', 'Exists', 'DoesNotExist']),
      values: stringList('Values for In and NotIn; empty for Exists and DoesNotExist.'),
    },
    ['scopeName', 'operator'],
  ),
);

export const ResourceQuotaSchema = kindSchema(
  { group: '', version: 'v1', kind: 'ResourceQuota' },
  'Aggregate limits on what a namespace may consume: compute resources, storage and numbers of objects.',
  {
    spec: field(
      named(
        `${CORE}.ResourceQuotaSpec`,
        struct('What a quota limits and which objects it counts.', {
          hard: resourceList('The most of each named resource the namespace may use: requests.cpu, limits.memory, pods, count/deployments.apps, ...'),
          scopes: atomicList(
            'Which objects the quota counts; all must match. Terminating, NotTerminating, BestEffort, NotBestEffort, ...',
            enumStr('A quota scope.', QUOTA_SCOPES),
          ),
          scopeSelector: field(
            named(
              `${CORE}.ScopeSelector`,
              struct(
                'Scopes as selector expressions, ANDed.',
                {
                  matchExpressions: atomicList('The requirements, ANDed.', ScopedResourceSelectorRequirement),
                },
                [],
                { 'x-kubernetes-map-type': 'atomic' },
              ),
            ),
            'Scopes as selector expressions; an object must match these and `scopes`.',
          ),
        }),
      ),
      'What the quota limits.',
    ),
    status: field(
      named(
        `${CORE}.ResourceQuotaStatus`,
        struct('What a quota enforces and what is in use.', {
          hard: resourceList('The limits enforced, as spec.hard once the quota controller has seen it.'),
          used: resourceList('What the namespace uses of each limited resource.'),
        }),
      ),
      'What is in use. Written by the server.',
    ),
  },
);

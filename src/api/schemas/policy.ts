// policy/v1 PodDisruptionBudget: how many pods of a set voluntary disruptions (evictions, drains)
// must leave running. The Eviction body lives with the pod (schemas/pod.ts).
import { enumStr, field, int32, int64, intOrString, map, named, struct, time } from './builders.js';
import { Condition, LabelSelector, conditionList, kindSchema } from './meta.js';

const POLICY = 'io.k8s.api.policy.v1';

export const UNHEALTHY_POD_EVICTION_POLICIES = ['IfHealthyBudget', 'AlwaysAllow'] as const;

const PodDisruptionBudgetSpec = named(
  `${POLICY}.PodDisruptionBudgetSpec`,
  struct('What a PodDisruptionBudget protects and how much.', {
    minAvailable: intOrString(
      'Pods selected by the budget that must stay available after an eviction: a number or a percentage of the expected pods (rounded up). Cannot be set with maxUnavailable.',
    ),
    maxUnavailable: intOrString(
      'Pods selected by the budget that may be unavailable after an eviction: a number or a percentage of the expected pods (rounded up). Cannot be set with minAvailable.',
    ),
    selector: field(
      LabelSelector,
      'Label query over the pods the budget covers. An empty selector selects every pod of the namespace; a missing one selects none.',
    ),
    unhealthyPodEvictionPolicy: enumStr(
      'When a pod that is not Ready may be evicted: IfHealthyBudget (the default when unset) only while the budget is met, AlwaysAllow always.',
      UNHEALTHY_POD_EVICTION_POLICIES,
    ),
  }),
);

const PodDisruptionBudgetStatus = named(
  `${POLICY}.PodDisruptionBudgetStatus`,
  struct(
    'What the disruption controller last observed of the budget.',
    {
      observedGeneration: int64('The generation of the budget this status was computed for.'),
      disruptedPods: map(
        'Pods the eviction API allowed to be evicted, by name, with the time; the controller forgets an entry after 2 minutes when the pod was not deleted.',
        time('When the eviction was allowed.'),
      ),
      disruptionsAllowed: int32('How many pods may be disrupted now.'),
      currentHealthy: int32('Selected pods that are Ready and not being deleted.'),
      desiredHealthy: int32('How many healthy pods the budget needs.'),
      expectedPods: int32("How many pods the budget expects, from the scale of the pods' controllers."),
      conditions: conditionList('DisruptionAllowed: True (SufficientPods) or False (InsufficientPods, SyncFailed).', Condition),
    },
    ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'],
  ),
);

export const PodDisruptionBudgetSchema = kindSchema(
  { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' },
  'The least number of pods of a set that voluntary disruptions (the eviction API, kubectl drain) must leave available.',
  {
    spec: field(PodDisruptionBudgetSpec, 'What the budget protects and how much.'),
    status: field(PodDisruptionBudgetStatus, 'What the disruption controller last observed. Read-only.'),
  },
);

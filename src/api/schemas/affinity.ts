// core/v1 scheduling constraints: node and pod (anti-)affinity, tolerations, topology spread.
import { atomicList, field, int32, int64, named, enumStr, str, stringList, struct } from './builders.js';
import { LabelSelector } from './meta.js';

const CORE = 'io.k8s.api.core.v1';

export const NodeSelectorRequirement = named(
  `${CORE}.NodeSelectorRequirement`,
  struct(
    'One node selector expression: a key, an operator and values.',
    {
      key: str('The label (or field) key the requirement applies to.'),
      operator: enumStr('Relation between key and values: In, NotIn, Exists, DoesNotExist, Gt or Lt.', ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
      values: stringList('Values: non-empty for In and NotIn, empty for Exists and DoesNotExist, a single integer for Gt and Lt.'),
    },
    ['key', 'operator'],
  ),
);

export const NodeSelectorTerm = named(
  `${CORE}.NodeSelectorTerm`,
  struct(
    'A set of requirements that are ANDed. An empty term matches nothing.',
    {
      matchExpressions: atomicList('Requirements on node labels.', NodeSelectorRequirement),
      matchFields: atomicList('Requirements on node fields (only metadata.name).', NodeSelectorRequirement),
    },
    [],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const NodeSelector = named(
  `${CORE}.NodeSelector`,
  struct(
    'A union of node selector terms: a node matches when any term matches.',
    {
      nodeSelectorTerms: atomicList('The terms, ORed.', NodeSelectorTerm),
    },
    ['nodeSelectorTerms'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const PreferredSchedulingTerm = named(
  `${CORE}.PreferredSchedulingTerm`,
  struct(
    'A weighted node preference.',
    {
      weight: int32("Weight added to a node's score when it matches, 1-100."),
      preference: field(NodeSelectorTerm, 'The node selector term to match.'),
    },
    ['weight', 'preference'],
  ),
);

export const NodeAffinity = named(
  `${CORE}.NodeAffinity`,
  struct('Node affinity rules of a pod.', {
    requiredDuringSchedulingIgnoredDuringExecution: field(NodeSelector, 'Nodes the pod may be scheduled on. Not re-checked once the pod runs.'),
    preferredDuringSchedulingIgnoredDuringExecution: atomicList(
      'Nodes the scheduler prefers; the node with the greatest sum of matching weights wins.',
      PreferredSchedulingTerm,
    ),
  }),
);

export const PodAffinityTerm = named(
  `${CORE}.PodAffinityTerm`,
  struct(
    'Selects a set of pods (by label and namespace); the pod must (or must not) be co-located with them in the same topology domain.',
    {
      labelSelector: field(LabelSelector, 'Label query over the pods to co-locate with. Null matches no pods.'),
      namespaces: stringList("Namespaces the selected pods live in; empty (with no namespaceSelector) means the pod's own namespace."),
      topologyKey: str('Node label defining the topology domain, e.g. kubernetes.io/hostname or topology.kubernetes.io/zone. Required.'),
      namespaceSelector: field(LabelSelector, 'Label query over namespaces, ORed with the namespaces list. An empty selector matches every namespace.'),
      matchLabelKeys: stringList('Label keys whose values are taken from the incoming pod and ANDed into labelSelector as In requirements.'),
      mismatchLabelKeys: stringList('Label keys whose values are taken from the incoming pod and ANDed into labelSelector as NotIn requirements.'),
    },
    ['topologyKey'],
  ),
);

export const WeightedPodAffinityTerm = named(
  `${CORE}.WeightedPodAffinityTerm`,
  struct(
    'A weighted pod affinity term.',
    {
      weight: int32('Weight of the term, 1-100.'),
      podAffinityTerm: field(PodAffinityTerm, 'The term.'),
    },
    ['weight', 'podAffinityTerm'],
  ),
);

function podAffinity(kind: 'PodAffinity' | 'PodAntiAffinity', verb: string): ReturnType<typeof struct> {
  return named(
    `${CORE}.${kind}`,
    struct(`Rules to schedule the pod ${verb} other pods.`, {
      requiredDuringSchedulingIgnoredDuringExecution: atomicList(
        `Terms that must all hold at scheduling time: the pod is placed ${verb} the pods each term selects. Not re-checked once the pod runs.`,
        PodAffinityTerm,
      ),
      preferredDuringSchedulingIgnoredDuringExecution: atomicList(
        `Weighted terms the scheduler prefers to satisfy (placing the pod ${verb} matching pods).`,
        WeightedPodAffinityTerm,
      ),
    }),
  );
}

export const Affinity = named(
  `${CORE}.Affinity`,
  struct('Affinity scheduling rules of a pod.', {
    nodeAffinity: field(NodeAffinity, 'Constraints on the nodes the pod runs on.'),
    podAffinity: field(podAffinity('PodAffinity', 'near'), 'Co-locate the pod with other pods.'),
    podAntiAffinity: field(podAffinity('PodAntiAffinity', 'away from'), 'Keep the pod away from other pods.'),
  }),
);

export const Toleration = named(
  `${CORE}.Toleration`,
  struct('Lets the pod be scheduled on (or keep running on) nodes with a matching taint.', {
    key: str('Taint key to match; empty matches every key (operator must then be Exists).'),
    operator: enumStr('Exists (any value) or Equal (value must match). Defaults to Equal.', ['', 'Exists', 'Equal']),
    value: str('Taint value to match; must be empty with Exists.'),
    effect: enumStr('Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; empty matches all.', [
      '',
      'NoSchedule',
      'PreferNoSchedule',
      'NoExecute',
    ]),
    tolerationSeconds: int64(
      'For NoExecute taints only: how long the pod stays bound after the taint appears before it is evicted. Unset means forever; 0 or less means immediately.',
    ),
  }),
);

export const TopologySpreadConstraint = named(
  `${CORE}.TopologySpreadConstraint`,
  struct(
    'How matching pods are spread across topology domains (zones, nodes, ...).',
    {
      maxSkew: int32('Maximum allowed difference between the number of matching pods in any two domains. Must be greater than 0.'),
      topologyKey: str('Node label key defining the domains; nodes with the same value are in the same domain.'),
      whenUnsatisfiable: enumStr('What to do when the constraint cannot be met: DoNotSchedule (the default) or ScheduleAnyway (only prefer).', [
        'DoNotSchedule',
        'ScheduleAnyway',
      ]),
      labelSelector: field(LabelSelector, 'Selects the pods counted in each domain.'),
      minDomains: int32('Minimum number of eligible domains; with fewer, the global minimum counts as 0. Only with DoNotSchedule.'),
      nodeAffinityPolicy: enumStr("Whether the pod's nodeAffinity/nodeSelector limit the domains counted: Honor (the default) or Ignore.", ['Honor', 'Ignore']),
      nodeTaintsPolicy: enumStr('Whether node taints limit the domains counted: Honor or Ignore (the default).', ['Honor', 'Ignore']),
      matchLabelKeys: stringList('Label keys whose values are taken from the incoming pod and ANDed into labelSelector.'),
    },
    ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
  ),
);

// autoscaling/v2 HorizontalPodAutoscaler (the stored form) and autoscaling/v1 (served by
// conversion: src/api/autoscaling/hpa-conversion.ts), with Kubernetes' field names.
import { enumStr, field, int32, int64, list, named, quantity, str, struct, time } from './builders.js';
import { LabelSelector, kindSchema } from './meta.js';

const V2 = 'io.k8s.api.autoscaling.v2';
const V1 = 'io.k8s.api.autoscaling.v1';

const crossVersionReference = (prefix: string) =>
  named(
    `${prefix}.CrossVersionObjectReference`,
    struct(
      'Refers to a resource that may be in another API version.',
      {
        kind: str('Kind of the referent, e.g. Deployment.'),
        name: str('Name of the referent.'),
        apiVersion: str('API version of the referent, e.g. apps/v1.'),
      },
      ['kind', 'name'],
    ),
  );

const ScaleTargetRef = crossVersionReference(V2);

const MetricTarget = named(
  `${V2}.MetricTarget`,
  struct(
    'The target value, average value or average utilization of a metric.',
    {
      type: enumStr('Utilization, Value or AverageValue.', ['Utilization', 'Value', 'AverageValue']),
      value: quantity('The target value of the metric.'),
      averageValue: quantity('The target value of the average of the metric across all pods.'),
      averageUtilization: int32(
        "The target average of the resource across all pods, in percent of the pods' requests. Resource and ContainerResource metrics only.",
      ),
    },
    ['type'],
  ),
);

const MetricValueStatus = named(
  `${V2}.MetricValueStatus`,
  struct('The current value of a metric.', {
    value: quantity('The current value of the metric.'),
    averageValue: quantity('The current average value of the metric across all pods.'),
    averageUtilization: int32("The current average of the resource across all pods, in percent of the pods' requests."),
  }),
);

const MetricIdentifier = named(
  `${V2}.MetricIdentifier`,
  struct(
    'Names a metric.',
    {
      name: str('The name of the metric.'),
      selector: field(LabelSelector, "Narrows the metric's series by their labels."),
    },
    ['name'],
  ),
);

const resourceSource = (name: string, container: boolean) =>
  named(
    `${V2}.${name}`,
    struct(
      container ? 'A resource metric of one container of each pod.' : 'A resource metric (cpu, memory) of the pods, as the metrics API reports it.',
      {
        name: str('The name of the resource (cpu, memory).'),
        ...(container ? { container: str('The name of the container in the pods.') } : {}),
        target: field(MetricTarget, 'The target value.'),
      },
      container ? ['name', 'container', 'target'] : ['name', 'target'],
    ),
  );

const resourceStatus = (name: string, container: boolean) =>
  named(
    `${V2}.${name}`,
    struct(
      'The current value of a resource metric.',
      {
        name: str('The name of the resource.'),
        ...(container ? { container: str('The name of the container in the pods.') } : {}),
        current: field(MetricValueStatus, 'The current value.'),
      },
      container ? ['name', 'container', 'current'] : ['name', 'current'],
    ),
  );

const PodsMetricSource = named(
  `${V2}.PodsMetricSource`,
  struct(
    'A metric of each pod, averaged.',
    {
      metric: field(MetricIdentifier, 'The metric.'),
      target: field(MetricTarget, 'The target value.'),
    },
    ['metric', 'target'],
  ),
);

const ObjectMetricSource = named(
  `${V2}.ObjectMetricSource`,
  struct(
    'A metric of another object.',
    {
      describedObject: field(ScaleTargetRef, 'The object the metric describes.'),
      metric: field(MetricIdentifier, 'The metric.'),
      target: field(MetricTarget, 'The target value.'),
    },
    ['describedObject', 'metric', 'target'],
  ),
);

const ExternalMetricSource = named(
  `${V2}.ExternalMetricSource`,
  struct(
    'A metric not about any Kubernetes object.',
    {
      metric: field(MetricIdentifier, 'The metric.'),
      target: field(MetricTarget, 'The target value.'),
    },
    ['metric', 'target'],
  ),
);

const METRIC_TYPES = ['Object', 'Pods', 'Resource', 'ContainerResource', 'External'];

const MetricSpec = named(
  `${V2}.MetricSpec`,
  struct(
    'One metric to scale by.',
    {
      type: enumStr('The metric source type: Object, Pods, Resource, ContainerResource or External.', METRIC_TYPES),
      resource: field(resourceSource('ResourceMetricSource', false), 'A resource metric of the pods.'),
      containerResource: field(resourceSource('ContainerResourceMetricSource', true), 'A resource metric of one container of the pods.'),
      pods: field(PodsMetricSource, 'A metric of each pod.'),
      object: field(ObjectMetricSource, 'A metric of another object.'),
      external: field(ExternalMetricSource, 'A metric from outside the cluster.'),
    },
    ['type'],
  ),
);

const MetricStatus = named(
  `${V2}.MetricStatus`,
  struct(
    'The last read state of one metric.',
    {
      type: enumStr('The metric source type.', METRIC_TYPES),
      resource: field(resourceStatus('ResourceMetricStatus', false), 'A resource metric of the pods.'),
      containerResource: field(resourceStatus('ContainerResourceMetricStatus', true), 'A resource metric of one container of the pods.'),
    },
    ['type'],
  ),
);

const ScalingPolicy = named(
  `${V2}.HPAScalingPolicy`,
  struct(
    'A change the autoscaler may make within one period.',
    {
      type: enumStr('Pods or Percent.', ['Pods', 'Percent']),
      value: int32('The number of pods, or the percent of current replicas, that may change.'),
      periodSeconds: int32('The window (1 to 1800 seconds) the policy holds over.'),
    },
    ['type', 'value', 'periodSeconds'],
  ),
);

const ScalingRules = named(
  `${V2}.HPAScalingRules`,
  struct('How the autoscaler scales in one direction.', {
    stabilizationWindowSeconds: int32('Seconds of past recommendations considered (0 to 3600): the extreme one of the window is used.'),
    selectPolicy: enumStr("Which policy's change is used: Max (the default), Min, or Disabled.", ['Max', 'Min', 'Disabled']),
    policies: list('The policies that limit the change.', ScalingPolicy, { 'x-kubernetes-list-type': 'atomic' }),
  }),
);

const Behavior = named(
  `${V2}.HorizontalPodAutoscalerBehavior`,
  struct('Scaling behaviour up and down.', {
    scaleUp: field(ScalingRules, 'Rules for scaling up. Default: no stabilization; 100% or 4 pods per 15 s, the greater.'),
    scaleDown: field(ScalingRules, 'Rules for scaling down. Default: 300 s stabilization; 100% per 15 s.'),
  }),
);

const HpaCondition = named(
  `${V2}.HorizontalPodAutoscalerCondition`,
  struct(
    "One aspect of the autoscaler's state.",
    {
      type: enumStr('AbleToScale, ScalingActive or ScalingLimited.', ['AbleToScale', 'ScalingActive', 'ScalingLimited']),
      status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
      lastTransitionTime: time('When the condition last changed status.'),
      reason: str('Why, in CamelCase.'),
      message: str('Why, for people.'),
    },
    ['type', 'status'],
  ),
);

const HpaSpecV2 = named(
  `${V2}.HorizontalPodAutoscalerSpec`,
  struct(
    'What to scale, within which bounds, by which metrics.',
    {
      scaleTargetRef: field(ScaleTargetRef, 'The resource scaled (through its scale subresource).'),
      minReplicas: int32('The lower bound of replicas. Defaults to 1.'),
      maxReplicas: int32('The upper bound of replicas; at least minReplicas.'),
      metrics: list('The metrics the desired replicas are computed from; the greatest proposal wins. Default: 80% average CPU utilization.', MetricSpec, {
        'x-kubernetes-list-type': 'atomic',
      }),
      behavior: field(Behavior, 'Scaling behaviour up and down; defaults apply when unset.'),
    },
    ['scaleTargetRef', 'maxReplicas'],
  ),
);

const HpaStatusV2 = named(
  `${V2}.HorizontalPodAutoscalerStatus`,
  struct(
    "The autoscaler's last observations.",
    {
      observedGeneration: int64('The generation last acted on.'),
      lastScaleTime: time('When the replicas were last changed.'),
      currentReplicas: int32('Replicas of the target as last seen.'),
      desiredReplicas: int32('Replicas the autoscaler last wanted.'),
      currentMetrics: list('The metrics as last read.', MetricStatus, { 'x-kubernetes-list-type': 'atomic' }),
      conditions: list('AbleToScale, ScalingActive and ScalingLimited.', HpaCondition, {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
        'x-kubernetes-patch-merge-key': 'type',
        'x-kubernetes-patch-strategy': 'merge',
      }),
    },
    ['desiredReplicas'],
  ),
);

export const HorizontalPodAutoscalerSchema = kindSchema(
  { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
  "Scales a workload's replicas by its pods' metrics.",
  {
    spec: field(HpaSpecV2, 'What to scale and by which metrics.'),
    status: field(HpaStatusV2, "The autoscaler's last observations. Read-only."),
  },
);

export const HorizontalPodAutoscalerV1Schema = kindSchema(
  { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
  "Scales a workload's replicas by its pods' average CPU utilization.",
  {
    spec: field(
      named(
        `${V1}.HorizontalPodAutoscalerSpec`,
        struct(
          'What to scale, within which bounds.',
          {
            scaleTargetRef: field(crossVersionReference(V1), 'The resource scaled.'),
            minReplicas: int32('The lower bound of replicas. Defaults to 1.'),
            maxReplicas: int32('The upper bound of replicas.'),
            targetCPUUtilizationPercentage: int32('Target average CPU utilization in percent of requests. Default 80.'),
          },
          ['scaleTargetRef', 'maxReplicas'],
        ),
      ),
      'What to scale.',
    ),
    status: field(
      named(
        `${V1}.HorizontalPodAutoscalerStatus`,
        struct("The autoscaler's last observations.", {
          observedGeneration: int64('The generation last acted on.'),
          lastScaleTime: time('When the replicas were last changed.'),
          currentReplicas: int32('Replicas of the target as last seen.'),
          desiredReplicas: int32('Replicas the autoscaler last wanted.'),
          currentCPUUtilizationPercentage: int32('Current average CPU utilization in percent of requests.'),
        }),
      ),
      "The last observations. Read-only; the replica counts are 0 when not given (Go's zero values).",
    ),
  },
);

// autoscaling/v1 HorizontalPodAutoscaler (api/autoscaling/v1/generated.proto): what
// `kubectl autoscale` sends, as protobuf.
import { objectMeta } from './meta-v1.js';
import { i32, i64, message, msg, PTR, str, time } from './schema.js';

const crossVersionObjectReference = message('CrossVersionObjectReference', { 1: str('kind'), 2: str('name'), 3: str('apiVersion') });

const spec = message('HorizontalPodAutoscalerSpec', {
  1: msg('scaleTargetRef', crossVersionObjectReference),
  2: i32('minReplicas', PTR),
  3: i32('maxReplicas'),
  4: i32('targetCPUUtilizationPercentage', PTR),
});

const status = message('HorizontalPodAutoscalerStatus', {
  1: i64('observedGeneration', PTR),
  2: time('lastScaleTime'),
  3: i32('currentReplicas'),
  4: i32('desiredReplicas'),
  5: i32('currentCPUUtilizationPercentage', PTR),
});

export const horizontalPodAutoscalerV1 = message('HorizontalPodAutoscaler', { 1: msg('metadata', objectMeta), 2: msg('spec', spec), 3: msg('status', status) });

// core/v1 top-level kinds other than Pod (core/v1/generated.proto).
import { localObjectReference, objectReference } from './core-v1-refs.js';
import { persistentVolumeClaimSpec } from './core-v1-volume.js';
import { condition, objectMeta } from './meta-v1.js';
import { ALWAYS, bool, i32, intOrString, map, message, microTime, msg, PTR, REP, str, time } from './schema.js';

const metadata = msg('metadata', objectMeta);

const namespaceCondition = message('NamespaceCondition', {
  1: str('type'),
  2: str('status'),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
});

export const namespace = message('Namespace', {
  1: metadata,
  2: msg('spec', message('NamespaceSpec', { 1: str('finalizers', REP) })),
  3: msg('status', message('NamespaceStatus', { 1: str('phase'), 2: msg('conditions', namespaceCondition, REP) })),
});

export const configMap = message('ConfigMap', {
  1: metadata,
  4: bool('immutable', PTR),
  2: map('data'),
  3: map('binaryData', 'bytes'),
});

export const secret = message('Secret', {
  1: metadata,
  5: bool('immutable', PTR),
  2: map('data', 'bytes'),
  4: map('stringData'),
  3: str('type'),
});

export const serviceAccount = message('ServiceAccount', {
  1: metadata,
  2: msg('secrets', objectReference, REP),
  3: msg('imagePullSecrets', localObjectReference, REP),
  4: bool('automountServiceAccountToken', PTR),
});

const servicePort = message('ServicePort', {
  1: str('name'),
  2: str('protocol'),
  6: str('appProtocol', PTR),
  3: i32('port', ALWAYS),
  4: intOrString('targetPort'),
  5: i32('nodePort'),
});

const serviceSpec = message('ServiceSpec', {
  1: msg('ports', servicePort, REP),
  2: map('selector'),
  3: str('clusterIP'),
  18: str('clusterIPs', REP),
  4: str('type'),
  5: str('externalIPs', REP),
  7: str('sessionAffinity'),
  8: str('loadBalancerIP'),
  9: str('loadBalancerSourceRanges', REP),
  10: str('externalName'),
  11: str('externalTrafficPolicy'),
  12: i32('healthCheckNodePort'),
  13: bool('publishNotReadyAddresses'),
  14: msg('sessionAffinityConfig', message('SessionAffinityConfig', { 1: msg('clientIP', message('ClientIPConfig', { 1: i32('timeoutSeconds', PTR) })) })),
  19: str('ipFamilies', REP),
  17: str('ipFamilyPolicy', PTR),
  20: bool('allocateLoadBalancerNodePorts', PTR),
  21: str('loadBalancerClass', PTR),
  22: str('internalTrafficPolicy', PTR),
  23: str('trafficDistribution', PTR),
});

const portStatus = message('PortStatus', { 1: i32('port'), 2: str('protocol'), 3: str('error', PTR) });

export const loadBalancerStatus = message('LoadBalancerStatus', {
  1: msg('ingress', message('LoadBalancerIngress', { 1: str('ip'), 2: str('hostname'), 3: str('ipMode', PTR), 4: msg('ports', portStatus, REP) }), REP),
});

export const service = message('Service', {
  1: metadata,
  2: msg('spec', serviceSpec),
  3: msg('status', message('ServiceStatus', { 1: msg('loadBalancer', loadBalancerStatus), 2: msg('conditions', condition, REP) })),
});

const endpointAddress = message('EndpointAddress', {
  1: str('ip'),
  3: str('hostname'),
  4: str('nodeName', PTR),
  2: msg('targetRef', objectReference),
});

const endpointPort = message('EndpointPort', { 1: str('name'), 2: i32('port', ALWAYS), 3: str('protocol'), 4: str('appProtocol', PTR) });

export const endpoints = message('Endpoints', {
  1: metadata,
  2: msg(
    'subsets',
    message('EndpointSubset', {
      1: msg('addresses', endpointAddress, REP),
      2: msg('notReadyAddresses', endpointAddress, REP),
      3: msg('ports', endpointPort, REP),
    }),
    REP,
  ),
});

export const binding = message('Binding', { 1: metadata, 2: msg('target', objectReference) });

export const event = message('Event', {
  1: metadata,
  2: msg('involvedObject', objectReference),
  3: str('reason'),
  4: str('message'),
  5: msg('source', message('EventSource', { 1: str('component'), 2: str('host') })),
  6: time('firstTimestamp'),
  7: time('lastTimestamp'),
  8: i32('count'),
  9: str('type'),
  10: microTime('eventTime'),
  11: msg('series', message('EventSeries', { 1: i32('count'), 2: microTime('lastObservedTime') })),
  12: str('action'),
  13: msg('related', objectReference),
  14: str('reportingComponent'),
  15: str('reportingInstance'),
});

const scopeSelector = message('ScopeSelector', {
  1: msg('matchExpressions', message('ScopedResourceSelectorRequirement', { 1: str('scopeName'), 2: str('operator'), 3: str('values', REP) }), REP),
});

export const resourceQuota = message('ResourceQuota', {
  1: metadata,
  2: msg('spec', message('ResourceQuotaSpec', { 1: map('hard', 'quantity'), 2: str('scopes', REP), 3: msg('scopeSelector', scopeSelector) })),
  3: msg('status', message('ResourceQuotaStatus', { 1: map('hard', 'quantity'), 2: map('used', 'quantity') })),
});

export const limitRange = message('LimitRange', {
  1: metadata,
  2: msg(
    'spec',
    message('LimitRangeSpec', {
      1: msg(
        'limits',
        message('LimitRangeItem', {
          1: str('type'),
          2: map('max', 'quantity'),
          3: map('min', 'quantity'),
          4: map('default', 'quantity'),
          5: map('defaultRequest', 'quantity'),
          6: map('maxLimitRequestRatio', 'quantity'),
        }),
        REP,
      ),
    }),
  ),
});

export const persistentVolumeClaim = message('PersistentVolumeClaim', {
  1: metadata,
  2: msg('spec', persistentVolumeClaimSpec),
  3: msg(
    'status',
    message('PersistentVolumeClaimStatus', {
      1: str('phase'),
      2: str('accessModes', REP),
      3: map('capacity', 'quantity'),
      5: map('allocatedResources', 'quantity'),
      7: map('allocatedResourceStatuses'),
      8: str('currentVolumeAttributesClassName', PTR),
    }),
  ),
});

// networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy (api/networking/v1/generated.proto).
import { typedLocalObjectReference } from './core-v1-refs.js';
import { labelSelector, objectMeta } from './meta-v1.js';
import { i32, intOrString, message, msg, PTR, REP, str } from './schema.js';

const metadata = msg('metadata', objectMeta);

const ingressBackend = message('IngressBackend', {
  4: msg(
    'service',
    message('IngressServiceBackend', {
      1: str('name'),
      2: msg('port', message('ServiceBackendPort', { 1: str('name'), 2: i32('number') })),
    }),
  ),
  3: msg('resource', typedLocalObjectReference),
});

const httpIngressPath = message('HTTPIngressPath', { 1: str('path'), 3: str('pathType', PTR), 2: msg('backend', ingressBackend) });

const ingressRule = message('IngressRule', {
  1: str('host'),
  // IngressRuleValue is embedded inline: its `http` lands on the rule itself.
  2: msg('ingressRuleValue', message('IngressRuleValue', { 1: msg('http', message('HTTPIngressRuleValue', { 1: msg('paths', httpIngressPath, REP) })) }), {
    inline: true,
  }),
});

const ingressSpec = message('IngressSpec', {
  4: str('ingressClassName', PTR),
  1: msg('defaultBackend', ingressBackend),
  2: msg('tls', message('IngressTLS', { 1: str('hosts', REP), 2: str('secretName') }), REP),
  3: msg('rules', ingressRule, REP),
});

const ingressPortStatus = message('IngressPortStatus', { 1: i32('port'), 2: str('protocol'), 3: str('error', PTR) });

const ingressStatus = message('IngressStatus', {
  1: msg(
    'loadBalancer',
    message('IngressLoadBalancerStatus', {
      1: msg('ingress', message('IngressLoadBalancerIngress', { 1: str('ip'), 2: str('hostname'), 4: msg('ports', ingressPortStatus, REP) }), REP),
    }),
  ),
});

export const ingress = message('Ingress', { 1: metadata, 2: msg('spec', ingressSpec), 3: msg('status', ingressStatus) });

export const ingressClass = message('IngressClass', {
  1: metadata,
  2: msg(
    'spec',
    message('IngressClassSpec', {
      1: str('controller'),
      2: msg(
        'parameters',
        message('IngressClassParametersReference', {
          // The proto field is named aPIGroup; the Go json tag is "apiGroup".
          1: str('apiGroup', PTR),
          2: str('kind'),
          3: str('name'),
          4: str('scope', PTR),
          5: str('namespace', PTR),
        }),
      ),
    }),
  ),
});

const networkPolicyPeer = message('NetworkPolicyPeer', {
  1: msg('podSelector', labelSelector),
  2: msg('namespaceSelector', labelSelector),
  3: msg('ipBlock', message('IPBlock', { 1: str('cidr'), 2: str('except', REP) })),
});

const networkPolicyPort = message('NetworkPolicyPort', { 1: str('protocol', PTR), 2: intOrString('port'), 3: i32('endPort', PTR) });

export const networkPolicy = message('NetworkPolicy', {
  1: metadata,
  2: msg(
    'spec',
    message('NetworkPolicySpec', {
      1: msg('podSelector', labelSelector),
      2: msg('ingress', message('NetworkPolicyIngressRule', { 1: msg('ports', networkPolicyPort, REP), 2: msg('from', networkPolicyPeer, REP) }), REP),
      3: msg('egress', message('NetworkPolicyEgressRule', { 1: msg('ports', networkPolicyPort, REP), 2: msg('to', networkPolicyPeer, REP) }), REP),
      4: str('policyTypes', REP),
    }),
  ),
});

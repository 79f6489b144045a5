// core/v1 Service and Endpoints.
import { atomicList, bool, field, int32, intOrString, list, map, named, enumStr, str, stringList, struct } from './builders.js';
import { Condition, kindSchema } from './meta.js';
import { PROTOCOLS } from './container.js';
import { ObjectReference } from './object-reference.js';

const CORE = 'io.k8s.api.core.v1';
export const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const;

export const ServicePort = named(
  `${CORE}.ServicePort`,
  struct(
    'A port the service exposes.',
    {
      name: str('Name of the port: a DNS label, unique within the service. Required when there is more than one port. Endpoints use it to match ports.'),
      protocol: enumStr('IP protocol: TCP, UDP or SCTP. Defaults to TCP.', PROTOCOLS, { default: 'TCP' }),
      appProtocol: str('Application protocol of the port, e.g. http, kubernetes.io/h2c, or a domain-prefixed name.'),
      port: int32('Port the service listens on.'),
      targetPort: intOrString(
        "Number or name of the port on the selected pods that traffic goes to. Defaults to port. A name is looked up in each pod's container ports.",
      ),
      nodePort: int32('Port opened on every node for NodePort and LoadBalancer services; allocated when unset.'),
    },
    ['port'],
  ),
);

const SessionAffinityConfig = named(
  `${CORE}.SessionAffinityConfig`,
  struct('Session affinity settings.', {
    clientIP: field(
      named(
        `${CORE}.ClientIPConfig`,
        struct('Settings of ClientIP affinity.', {
          timeoutSeconds: int32('Seconds a session sticks, 1-86400. Defaults to 10800 (3 hours).'),
        }),
      ),
      'Settings of ClientIP-based affinity.',
    ),
  }),
);

export const ServiceSpec = named(
  `${CORE}.ServiceSpec`,
  struct('Attributes of a service set by its creator.', {
    ports: list('Ports the service exposes.', ServicePort, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      'x-kubernetes-patch-merge-key': 'port',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    selector: map('Traffic is routed to pods whose labels match this selector. When empty, endpoints are managed outside the system.', undefined, {
      'x-kubernetes-map-type': 'atomic',
    }),
    clusterIP: str(
      'Virtual IP of the service, usually allocated by the server. "None" makes a headless service. Cannot be changed except by switching to or from ExternalName.',
    ),
    clusterIPs: stringList('Virtual IPs of the service, one per IP family; the first equals clusterIP.'),
    type: enumStr(
      'How the service is exposed: ClusterIP (the default; a cluster-internal virtual IP), NodePort (plus a port on every node), LoadBalancer (plus an external load balancer) or ExternalName (a DNS CNAME to externalName).',
      SERVICE_TYPES,
    ),
    externalIPs: stringList('IPs for which nodes also accept traffic for this service. Not managed by the system.'),
    sessionAffinity: enumStr('ClientIP keeps a client on the same pod; None (the default) does not.', ['ClientIP', 'None']),
    loadBalancerIP: str('Deprecated: requested load balancer IP, for providers that support it.'),
    loadBalancerSourceRanges: stringList('Client CIDRs allowed through the cloud load balancer.'),
    externalName: str('DNS name the service aliases (CNAME), for type ExternalName. Must be a lowercase RFC 1123 hostname.'),
    externalTrafficPolicy: enumStr(
      'How external traffic (node ports, load balancer) is routed: Cluster (to any ready endpoint) or Local (only to endpoints on the receiving node, keeping the client IP).',
      ['Cluster', 'Local'],
    ),
    healthCheckNodePort: int32('Node port for load balancer health checks, for LoadBalancer services with externalTrafficPolicy Local.'),
    publishNotReadyAddresses: bool('Publish endpoints of pods that are not ready (e.g. for peer discovery of StatefulSets).'),
    sessionAffinityConfig: field(SessionAffinityConfig, 'Session affinity settings.'),
    ipFamilies: stringList('IP families (IPv4, IPv6) of the service, assigned from ipFamilyPolicy.'),
    ipFamilyPolicy: enumStr('Dual-stack choice: SingleStack, PreferDualStack or RequireDualStack.', ['SingleStack', 'PreferDualStack', 'RequireDualStack']),
    allocateLoadBalancerNodePorts: bool('Whether node ports are allocated for LoadBalancer services. Defaults to true.'),
    loadBalancerClass: str('Class of the load balancer implementation to use, for type LoadBalancer.'),
    internalTrafficPolicy: enumStr('How traffic from inside the cluster is routed: Cluster or Local (only to endpoints on the same node).', [
      'Cluster',
      'Local',
    ]),
    trafficDistribution: str('Preference for how traffic is spread over endpoints, e.g. PreferClose.'),
  }),
);

const PortStatus = named(
  `${CORE}.PortStatus`,
  struct(
    'Status of one load balancer port.',
    {
      port: int32('Port number.'),
      protocol: enumStr('TCP, UDP or SCTP.', PROTOCOLS),
      error: str('Problem with the port, in CamelCase (e.g. a cloud-provider error).'),
    },
    ['port', 'protocol'],
  ),
);

const LoadBalancerIngress = named(
  `${CORE}.LoadBalancerIngress`,
  struct('An ingress point of a load balancer.', {
    ip: str('IP of the ingress point.'),
    hostname: str('DNS name of the ingress point.'),
    ipMode: enumStr('VIP (traffic arrives with the IP as destination) or Proxy.', ['VIP', 'Proxy']),
    ports: atomicList('Status of the ports.', PortStatus),
  }),
);

export const ServiceStatus = named(
  `${CORE}.ServiceStatus`,
  struct('Observed state of a service.', {
    loadBalancer: field(
      named(
        `${CORE}.LoadBalancerStatus`,
        struct('State of a load balancer.', {
          ingress: atomicList('Ingress points of the load balancer.', LoadBalancerIngress),
        }),
      ),
      'State of the load balancer, if any.',
    ),
    conditions: list('Current state of the service.', Condition, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    }),
  }),
);

export const ServiceSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Service' },
  'A named abstraction of a network service: a stable virtual IP and ports that route to the pods matching a selector.',
  {
    spec: field(ServiceSpec, 'Desired behaviour of the service.'),
    status: field(ServiceStatus, 'Most recently observed status of the service. Read-only.'),
  },
);

const EndpointAddress = named(
  `${CORE}.EndpointAddress`,
  struct(
    'One address of an endpoint.',
    {
      ip: str('IP of the endpoint; may not be loopback, link-local or link-local multicast.'),
      hostname: str('Host name of the endpoint.'),
      nodeName: str('Node hosting the endpoint.'),
      targetRef: field(ObjectReference, 'Object (usually a pod) providing the endpoint.'),
    },
    ['ip'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

const EndpointPort = named(
  `${CORE}.EndpointPort`,
  struct(
    'One port of an endpoint.',
    {
      name: str('Name of the port; must match the service port name. Optional with a single port.'),
      port: int32('Port number.'),
      protocol: enumStr('TCP, UDP or SCTP. Defaults to TCP.', PROTOCOLS),
      appProtocol: str('Application protocol of the port.'),
    },
    ['port'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

const EndpointSubset = named(
  `${CORE}.EndpointSubset`,
  struct('A set of addresses that share a set of ports.', {
    addresses: atomicList('Addresses ready to serve.', EndpointAddress),
    notReadyAddresses: atomicList('Addresses not ready to serve (failing readiness or just started).', EndpointAddress),
    ports: atomicList('Ports of the addresses.', EndpointPort),
  }),
);

export const EndpointsSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Endpoints' },
  "The addresses and ports that implement a service, usually maintained by the endpoints controller from the service's selector.",
  { subsets: atomicList('Sets of addresses and ports. Every address:port combination of a subset is an endpoint.', EndpointSubset) },
);

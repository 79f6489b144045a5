// discovery.k8s.io/v1 EndpointSlice: the scalable successor of core/v1 Endpoints.
import { atomicList, bool, enumStr, field, int32, map, named, str, stringSet, struct } from './builders.js';
import { kindSchema } from './meta.js';
import { PROTOCOLS } from './container.js';
import { ObjectReference } from './object-reference.js';

const DISCOVERY = 'io.k8s.api.discovery.v1';

export const ADDRESS_TYPES = ['IPv4', 'IPv6', 'FQDN'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

const EndpointConditions = named(
  `${DISCOVERY}.EndpointConditions`,
  struct('The current state of an endpoint.', {
    ready: bool(
      'Whether the endpoint is ready for traffic. Unset means unknown, which consumers should read as ready. Never true for a terminating endpoint, unless the service publishes not-ready addresses.',
    ),
    serving: bool(
      'Like ready, but also set for terminating endpoints: whether the endpoint passes its readiness checks. Unset means unknown, which consumers should read as serving.',
    ),
    terminating: bool(
      'Whether the endpoint is terminating (its pod has a deletion timestamp). Unset means unknown, which consumers should read as not terminating.',
    ),
  }),
);

const ForZone = named(
  `${DISCOVERY}.ForZone`,
  struct(
    'A zone an endpoint should serve.',
    {
      name: str('Name of the zone.'),
    },
    ['name'],
  ),
);

const ForNode = named(
  `${DISCOVERY}.ForNode`,
  struct(
    'A node an endpoint should serve.',
    {
      name: str('Name of the node.'),
    },
    ['name'],
  ),
);

const EndpointHints = named(
  `${DISCOVERY}.EndpointHints`,
  struct('Hints on how an endpoint should be consumed, for topology-aware routing.', {
    forZones: atomicList('Zones this endpoint should serve (at most 8).', ForZone),
    forNodes: atomicList('Nodes this endpoint should serve (at most 8).', ForNode),
  }),
);

export const Endpoint = named(
  `${DISCOVERY}.Endpoint`,
  struct(
    'One logical backend of a service, usually a pod.',
    {
      addresses: stringSet("Addresses of the endpoint, of the slice's addressType; consumers use the first. At least 1, at most 100."),
      conditions: field(EndpointConditions, 'Current state of the endpoint.'),
      hostname: str('Host name of the endpoint, a DNS label; DNS publishes it for headless services.'),
      targetRef: field(ObjectReference, 'Object (usually a pod) providing the endpoint.'),
      deprecatedTopology: map('Deprecated: topology labels of the endpoint (replaced by nodeName and zone).'),
      nodeName: str('Name of the node hosting the endpoint.'),
      zone: str("Zone the endpoint is in (the node's topology.kubernetes.io/zone label)."),
      hints: field(EndpointHints, 'Hints on how the endpoint should be consumed.'),
    },
    ['addresses'],
  ),
);

export const EndpointPort = named(
  `${DISCOVERY}.EndpointPort`,
  struct(
    'A network port of the endpoints of a slice.',
    {
      name: str('Name of the port: empty or a DNS label, unique within the slice. Matches the name of the service port. Defaults to "".'),
      protocol: enumStr('IP protocol: TCP, UDP or SCTP. Defaults to TCP.', PROTOCOLS, { default: 'TCP' }),
      port: int32('Port number. Unset means all ports (no port restriction).'),
      appProtocol: str('Application protocol of the port, e.g. http, kubernetes.io/h2c, or a domain-prefixed name.'),
    },
    [],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const EndpointSliceSchema = kindSchema(
  { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' },
  'A subset of the endpoints that implement a service. A service may have several slices, found by the kubernetes.io/service-name label, which together give its full set of endpoints.',
  {
    addressType: enumStr('Type of every address in the slice: IPv4, IPv6 or FQDN. Cannot be changed after creation.', ADDRESS_TYPES),
    endpoints: atomicList('Unique endpoints of the slice; at most 1000.', Endpoint),
    ports: atomicList(
      'Ports every endpoint of the slice exposes; names are unique. Empty means no ports are defined; a port without a number means all ports. At most 100.',
      EndpointPort,
    ),
  },
  ['addressType'],
);

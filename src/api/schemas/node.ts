// core/v1 Node.
import { Type } from '@sinclair/typebox';
import { atomicList, bool, field, int32, int64, keyedList, list, named, enumStr, resourceList, str, stringList, struct, time } from './builders.js';
import { kindSchema } from './meta.js';

const CORE = 'io.k8s.api.core.v1';
export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export const Taint = named(
  `${CORE}.Taint`,
  struct(
    'Repels pods that do not tolerate it from the node.',
    {
      key: str('Taint key.'),
      value: str('Taint value.'),
      effect: enumStr('Effect on pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute (also evicts running pods).', TAINT_EFFECTS),
      timeAdded: time('When the taint was added (NoExecute taints only).'),
    },
    ['key', 'effect'],
  ),
);

const NodeSpec = named(
  `${CORE}.NodeSpec`,
  struct('Attributes of a node set when it is created.', {
    podCIDR: str('Pod IP range assigned to the node.'),
    podCIDRs: list('Pod IP ranges assigned to the node, one per IP family; the first equals podCIDR.', Type.String(), {
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    providerID: str('ID of the node assigned by the cloud provider: <provider>://<id>.'),
    unschedulable: bool('Keeps new pods from being scheduled on the node (kubectl cordon). Defaults to false.'),
    taints: atomicList('Taints of the node.', Taint),
    externalID: str('Deprecated; not used.'),
  }),
);

const NodeCondition = named(
  `${CORE}.NodeCondition`,
  struct(
    'One condition of a node.',
    {
      type: str('Type of the condition: Ready, MemoryPressure, DiskPressure, PIDPressure, NetworkUnavailable.'),
      status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
      lastHeartbeatTime: time('When the condition was last reported.'),
      lastTransitionTime: time('When the condition last changed status.'),
      reason: str('Machine-readable reason of the last transition.'),
      message: str('Human-readable details of the last transition.'),
    },
    ['type', 'status'],
  ),
);

const NodeAddress = named(
  `${CORE}.NodeAddress`,
  struct(
    'An address of the node.',
    {
      type: str('Kind of address: Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.'),
      address: str('The address.'),
    },
    ['type', 'address'],
  ),
);

const NodeSystemInfo = named(
  `${CORE}.NodeSystemInfo`,
  struct('Identity and software of a node.', {
    machineID: str('Machine ID reported by the node.'),
    systemUUID: str('System UUID reported by the node.'),
    bootID: str('Boot ID of the node.'),
    kernelVersion: str('Kernel version (uname -r).'),
    osImage: str('Operating system image (from /etc/os-release).'),
    containerRuntimeVersion: str('Container runtime name and version, e.g. docker://27.3.1.'),
    kubeletVersion: str('Version of the node agent.'),
    kubeProxyVersion: str('Deprecated: version of the service proxy.'),
    operatingSystem: str('Operating system: linux or windows.'),
    architecture: str('CPU architecture, e.g. amd64.'),
  }),
);

const DaemonEndpoint = named(
  `${CORE}.DaemonEndpoint`,
  struct(
    'A port of a daemon on the node.',
    {
      Port: int32('Port number.'),
    },
    ['Port'],
  ),
);

const ContainerImage = named(
  `${CORE}.ContainerImage`,
  struct('An image present on the node.', {
    names: stringList('Names (tags and digests) of the image.'),
    sizeBytes: int64('Size of the image in bytes.'),
  }),
);

const NodeStatus = named(
  `${CORE}.NodeStatus`,
  struct('Most recently observed state of a node.', {
    capacity: resourceList('Total resources of the node (cpu, memory, pods, ...).'),
    allocatable: resourceList('Resources available to pods; defaults to capacity.'),
    phase: str('Deprecated: lifecycle phase of the node.'),
    conditions: keyedList('Current service state of the node.', NodeCondition, 'type'),
    addresses: list('Addresses of the node.', NodeAddress, {
      'x-kubernetes-list-type': 'atomic',
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    daemonEndpoints: field(
      named(
        `${CORE}.NodeDaemonEndpoints`,
        struct('Ports of the daemons running on the node.', {
          kubeletEndpoint: field(DaemonEndpoint, "Port of the node agent's HTTP endpoint (logs, exec, attach, port-forward)."),
        }),
      ),
      'Endpoints of the daemons running on the node.',
    ),
    nodeInfo: field(NodeSystemInfo, 'Identity and software versions of the node.'),
    images: atomicList('Images present on the node.', ContainerImage),
    volumesInUse: stringList('Volumes in use (mounted) on the node.'),
    volumesAttached: atomicList(
      'Volumes attached to the node.',
      struct(
        'An attached volume.',
        {
          name: str('Name of the volume.'),
          devicePath: str('Where the volume is available.'),
        },
        ['name', 'devicePath'],
      ),
    ),
    runtimeHandlers: atomicList(
      'Runtime handlers available on the node.',
      struct('A runtime handler.', {
        name: str('Handler name; empty for the default.'),
        features: struct('Features of the handler.', {
          recursiveReadOnlyMounts: bool('Supports recursive read-only mounts.'),
          userNamespaces: bool('Supports user namespaces.'),
        }),
      }),
    ),
    features: struct('Features the node implements.', {
      supplementalGroupsPolicy: bool('Supports the supplementalGroupsPolicy field.'),
    }),
  }),
);

export const NodeSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Node' },
  'A worker machine that runs pods. Each node runs an agent that registers it, reports its status and runs the pods bound to it.',
  {
    spec: field(NodeSpec, 'Attributes of the node.'),
    status: field(NodeStatus, 'Most recently observed status of the node. Read-only for users.'),
  },
);

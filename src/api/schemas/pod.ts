// core/v1 PodSpec, PodTemplateSpec, Pod, Binding and policy/v1 Eviction.
import { atomicList, bool, field, int32, int64, keyedList, list, map, named, enumStr, resourceList, str, stringList, struct } from './builders.js';
import { DeleteOptions, ObjectMeta, kindSchema } from './meta.js';
import { Container, EphemeralContainer, ResourceRequirements } from './container.js';
import { Volume } from './volume.js';
import { Affinity, Toleration, TopologySpreadConstraint } from './affinity.js';
import { PodSecurityContext } from './security.js';
import { LocalObjectReference, ObjectReference } from './object-reference.js';
import { PodStatus } from './pod-status.js';

const CORE = 'io.k8s.api.core.v1';

const HostAlias = named(
  `${CORE}.HostAlias`,
  struct(
    "An extra entry of the pod's /etc/hosts.",
    {
      ip: str('IP address of the entry.'),
      hostnames: stringList('Host names for the IP.'),
    },
    ['ip'],
  ),
);

const PodDNSConfig = named(
  `${CORE}.PodDNSConfig`,
  struct('DNS settings of the pod, merged with those derived from dnsPolicy.', {
    nameservers: stringList('DNS server IPs, added to the base list (at most 3 in total).'),
    searches: stringList('DNS search domains, added to the base list.'),
    options: atomicList(
      'Resolver options; entries here replace base options of the same name.',
      named(
        `${CORE}.PodDNSConfigOption`,
        struct('A resolver option.', {
          name: str('Option name, e.g. ndots.'),
          value: str('Option value.'),
        }),
      ),
    ),
  }),
);

const PodReadinessGate = named(
  `${CORE}.PodReadinessGate`,
  struct(
    'An extra condition that must be True for the pod to be ready.',
    {
      conditionType: str("Type of a condition in the pod's condition list."),
    },
    ['conditionType'],
  ),
);

const PodSchedulingGate = named(
  `${CORE}.PodSchedulingGate`,
  struct(
    'A gate that keeps the pod from being scheduled while present.',
    {
      name: str('Name of the gate; unique within the pod.'),
    },
    ['name'],
  ),
);

const PodResourceClaim = named(
  `${CORE}.PodResourceClaim`,
  struct(
    "A ResourceClaim the pod's containers may use, by name.",
    {
      name: str('Name of the entry within the pod; containers refer to it.'),
      resourceClaimName: str("Name of an existing ResourceClaim in the pod's namespace."),
      resourceClaimTemplateName: str('Name of a ResourceClaimTemplate from which a claim is created for the pod.'),
    },
    ['name'],
  ),
);

export const PodSpec = named(
  `${CORE}.PodSpec`,
  struct(
    'Specification of a pod: its containers, volumes, and how it is scheduled and run.',
    {
      volumes: list("Volumes that the pod's containers can mount.", Volume, {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
      }),
      initContainers: keyedList(
        'Containers run to completion, in order, before the regular containers start. Those with restartPolicy Always are sidecars that keep running. Cannot be updated.',
        Container,
        'name',
      ),
      containers: keyedList("The pod's containers; at least one. Cannot be added or removed after creation.", Container, 'name'),
      ephemeralContainers: keyedList('Debugging containers added to the running pod through the ephemeralcontainers subresource.', EphemeralContainer, 'name'),
      restartPolicy: enumStr('Restart policy for the containers: Always, OnFailure or Never. Defaults to Always.', ['Always', 'OnFailure', 'Never']),
      terminationGracePeriodSeconds: int64(
        'Seconds between the termination signal and the kill signal when the pod is deleted. 0 kills immediately. Defaults to 30.',
      ),
      activeDeadlineSeconds: int64('Seconds, counted from startTime, the pod may be active before the system fails it. Positive integer.'),
      dnsPolicy: enumStr("DNS policy: ClusterFirst (the default), ClusterFirstWithHostNet, Default (the node's resolver) or None (only dnsConfig).", [
        'ClusterFirstWithHostNet',
        'ClusterFirst',
        'Default',
        'None',
      ]),
      nodeSelector: map('Labels a node must have for the pod to be scheduled on it.', undefined, { 'x-kubernetes-map-type': 'atomic' }),
      serviceAccountName: str('Name of the ServiceAccount the pod runs as. Defaults to "default".'),
      serviceAccount: str('Deprecated alias of serviceAccountName.'),
      automountServiceAccountToken: bool('Whether a service account token is mounted automatically.'),
      nodeName: str('Node the pod is bound to. Set by the scheduler through the binding subresource; setting it on create bypasses scheduling.'),
      hostNetwork: bool("Use the host's network namespace; ports are then host ports. Defaults to false."),
      hostPID: bool("Use the host's PID namespace. Defaults to false."),
      hostIPC: bool("Use the host's IPC namespace. Defaults to false."),
      shareProcessNamespace: bool("Run all containers in one process namespace, so they can see and signal each other's processes. Defaults to false."),
      securityContext: field(PodSecurityContext, 'Pod-level security attributes and common container settings. Defaults to empty.'),
      imagePullSecrets: keyedList("Secrets in the pod's namespace holding registry credentials used to pull images.", LocalObjectReference, 'name'),
      hostname: str('Host name of the pod; defaults to the pod name.'),
      subdomain: str('When set, the fully qualified host name is <hostname>.<subdomain>.<namespace>.svc.<cluster-domain>.'),
      affinity: field(Affinity, 'Node and pod affinity rules.'),
      schedulerName: str('Scheduler that places the pod. Defaults to default-scheduler.'),
      tolerations: atomicList('Taints the pod tolerates.', Toleration),
      hostAliases: list("Extra entries of the pod's /etc/hosts file.", HostAlias, {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['ip'],
        'x-kubernetes-patch-merge-key': 'ip',
        'x-kubernetes-patch-strategy': 'merge',
      }),
      priorityClassName: str('PriorityClass of the pod; system-node-critical and system-cluster-critical are the built-in highest ones.'),
      priority: int32('Priority value, filled from priorityClassName by the server. Higher is more important.'),
      dnsConfig: field(PodDNSConfig, 'Extra DNS parameters.'),
      readinessGates: atomicList('Extra conditions that must be True for the pod to be ready.', PodReadinessGate),
      runtimeClassName: str('RuntimeClass used to run the pod.'),
      enableServiceLinks: bool('Inject environment variables describing services (Docker links style). Defaults to true.'),
      preemptionPolicy: enumStr('Whether the pod may preempt lower-priority pods: PreemptLowerPriority (the default) or Never.', [
        'PreemptLowerPriority',
        'Never',
      ]),
      overhead: resourceList("Resources used by the pod sandbox, on top of the containers' requests; set by the RuntimeClass admission."),
      topologySpreadConstraints: list('How the pod and its peers are spread across topology domains; all constraints are ANDed.', TopologySpreadConstraint, {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['topologyKey', 'whenUnsatisfiable'],
        'x-kubernetes-patch-merge-key': 'topologyKey',
        'x-kubernetes-patch-strategy': 'merge',
      }),
      setHostnameAsFQDN: bool('Use the fully qualified domain name as the host name inside the containers. Defaults to false.'),
      os: field(
        named(
          `${CORE}.PodOS`,
          struct(
            'Operating system of the pod.',
            {
              name: enumStr('Operating system: linux or windows.', ['linux', 'windows']),
            },
            ['name'],
          ),
        ),
        'Operating system the containers need; restricts some fields.',
      ),
      hostUsers: bool("Use the host's user namespace. Defaults to true; false gives the pod its own user namespace."),
      schedulingGates: keyedList('Gates that keep the pod unscheduled while any is present. Can only be removed after creation.', PodSchedulingGate, 'name'),
      resourceClaims: list('Dynamically allocated resources the pod needs.', PodResourceClaim, {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
      }),
      resources: field(ResourceRequirements, 'Pod-level resource requests and limits, shared by all containers.'),
    },
    ['containers'],
  ),
);

export const PodTemplateSpec = named(
  `${CORE}.PodTemplateSpec`,
  struct('Template of the pods a controller creates.', {
    metadata: field(ObjectMeta, 'Labels and annotations given to every pod created from the template.'),
    spec: field(PodSpec, 'Specification of the pods.'),
  }),
);

export const PodSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Pod' },
  'A group of containers that run together on one node, sharing network and storage. Created by clients and scheduled onto nodes.',
  {
    spec: field(PodSpec, 'Desired state of the pod.'),
    status: field(PodStatus, 'Most recently observed state of the pod, written by the system. Read-only.'),
  },
);

export const BindingSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Binding' },
  'Binds an object to another one, e.g. a pod to a node (POST to pods/{name}/binding). Used by schedulers.',
  { target: field(ObjectReference, 'The object to bind to (a Node).') },
  ['target'],
);

export const EvictionSchema = kindSchema(
  { group: 'policy', version: 'v1', kind: 'Eviction' },
  'Evicts a pod (POST to pods/{name}/eviction) while respecting disruption budgets.',
  { deleteOptions: field(DeleteOptions, 'Options of the deletion.') },
);

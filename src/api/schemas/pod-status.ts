// core/v1 PodStatus and ContainerStatus, written by node agents.
import { atomicList, bool, field, int32, int64, keyedList, list, named, enumStr, resourceList, str, struct, time } from './builders.js';
import { conditionList } from './meta.js';
import { ResourceRequirements } from './container.js';

const CORE = 'io.k8s.api.core.v1';

const ContainerStateWaiting = named(
  `${CORE}.ContainerStateWaiting`,
  struct('A container that is not running yet.', {
    reason: str('Brief reason, e.g. ContainerCreating, ImagePullBackOff, CrashLoopBackOff.'),
    message: str('Details of the reason.'),
  }),
);

const ContainerStateRunning = named(
  `${CORE}.ContainerStateRunning`,
  struct('A running container.', {
    startedAt: time('When the container (last) started.'),
  }),
);

const ContainerStateTerminated = named(
  `${CORE}.ContainerStateTerminated`,
  struct(
    'A container that has exited.',
    {
      exitCode: int32('Exit status of the last termination.'),
      signal: int32('Signal that ended the container, if any.'),
      reason: str('Brief reason, e.g. Completed, Error, OOMKilled.'),
      message: str('Details, e.g. the termination message.'),
      startedAt: time('When the container started.'),
      finishedAt: time('When the container exited.'),
      containerID: str('ID of the container, as <runtime>://<id>.'),
    },
    ['exitCode'],
  ),
);

export const ContainerState = named(
  `${CORE}.ContainerState`,
  struct('State of a container: exactly one of waiting, running or terminated. Defaults to waiting.', {
    waiting: field(ContainerStateWaiting, 'Details of a waiting container.'),
    running: field(ContainerStateRunning, 'Details of a running container.'),
    terminated: field(ContainerStateTerminated, 'Details of a terminated container.'),
  }),
);

const VolumeMountStatus = named(
  `${CORE}.VolumeMountStatus`,
  struct(
    'Observed state of one volume mount.',
    {
      name: str('Name of the volume mount.'),
      mountPath: str('Where the volume is mounted.'),
      readOnly: bool('Whether the mount is read-only.'),
      recursiveReadOnly: str('Observed recursive read-only mode.'),
    },
    ['name', 'mountPath'],
  ),
);

export const ContainerStatus = named(
  `${CORE}.ContainerStatus`,
  struct(
    'Observed state of one container of a pod.',
    {
      name: str('Name of the container (as in the spec).'),
      state: field(ContainerState, 'Current state of the container.'),
      lastState: field(ContainerState, 'Previous termination of the container, if any.'),
      ready: bool('Whether the container passes its readiness probe (or has none and is running).'),
      restartCount: int32('Number of times the container has been restarted.'),
      image: str('Image the container runs.'),
      imageID: str('ID (digest) of the image the container runs.'),
      containerID: str('ID of the container, as <runtime>://<id>.'),
      started: bool('Whether the container has passed its startup probe (or has none and is running).'),
      allocatedResources: resourceList('Resources the node allocated to the container.'),
      resources: field(ResourceRequirements, 'Resources actually configured for the running container.'),
      volumeMounts: keyedList('Status of the volume mounts.', VolumeMountStatus, 'mountPath'),
      user: struct("Identity of the container's first process.", {
        linux: struct(
          'Linux identity.',
          {
            uid: int64('Primary UID.'),
            gid: int64('Primary GID.'),
            supplementalGroups: list('Supplemental GIDs.', int64('A group ID.'), { 'x-kubernetes-list-type': 'atomic' }),
          },
          ['uid', 'gid'],
        ),
      }),
    },
    ['name'],
  ),
);

const PodCondition = named(
  `${CORE}.PodCondition`,
  struct(
    'One condition of a pod.',
    {
      type: str('Type of the condition: PodScheduled, Initialized, ContainersReady, Ready, PodReadyToStartContainers, DisruptionTarget, ...'),
      status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
      lastProbeTime: time('When the condition was last probed.'),
      lastTransitionTime: time('When the condition last changed status.'),
      reason: str('Machine-readable reason of the last transition.'),
      message: str('Human-readable details of the last transition.'),
    },
    ['type', 'status'],
  ),
);

const PodIP = named(`${CORE}.PodIP`, struct('An IP address of the pod.', { ip: str('The address.') }, ['ip']));
const HostIP = named(`${CORE}.HostIP`, struct("An IP address of the pod's host.", { ip: str('The address.') }, ['ip']));

export const PodStatus = named(
  `${CORE}.PodStatus`,
  struct('Observed state of a pod. May lag behind the actual state of the node.', {
    phase: enumStr(
      "High-level summary of the pod's lifecycle: Pending (accepted, not all containers started), Running (bound, all containers created, at least one running), Succeeded (all containers exited with success and will not restart), Failed (all containers terminated, at least one failed) or Unknown.",
      ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'],
    ),
    conditions: conditionList('Current service state of the pod.', PodCondition),
    message: str("Human-readable message explaining the pod's state."),
    reason: str("Brief CamelCase reason for the pod's state, e.g. Evicted."),
    nominatedNodeName: str('Node on which the pod is expected to run once preemption of victims completes.'),
    hostIP: str('IP address of the node the pod is bound to.'),
    hostIPs: list('IP addresses of the host; the first equals hostIP.', HostIP, {
      'x-kubernetes-list-type': 'atomic',
      'x-kubernetes-patch-merge-key': 'ip',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    podIP: str('IP address allocated to the pod; routable at least within the cluster.'),
    podIPs: list('IP addresses of the pod (one per family); the first equals podIP.', PodIP, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['ip'],
      'x-kubernetes-patch-merge-key': 'ip',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    startTime: time('When the node acknowledged the pod, before images were pulled.'),
    initContainerStatuses: atomicList('Status of each init container.', ContainerStatus),
    containerStatuses: atomicList('Status of each regular container.', ContainerStatus),
    qosClass: enumStr("Quality of service class from the containers' requests and limits: Guaranteed, Burstable or BestEffort.", [
      'Guaranteed',
      'Burstable',
      'BestEffort',
    ]),
    ephemeralContainerStatuses: atomicList('Status of each ephemeral container.', ContainerStatus),
    resize: str("Status of an in-place resize of the pod's resources: Proposed, InProgress, Deferred or Infeasible."),
    resourceClaimStatuses: list(
      'Names of the ResourceClaims generated for the pod.',
      named(
        `${CORE}.PodResourceClaimStatus`,
        struct(
          'Name of a generated claim.',
          {
            name: str('Entry of pod.spec.resourceClaims.'),
            resourceClaimName: str('Name of the generated ResourceClaim.'),
          },
          ['name'],
        ),
      ),
      {
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
      },
    ),
  }),
);

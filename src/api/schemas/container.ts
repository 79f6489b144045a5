// core/v1 Container and its parts: ports, environment, resources, mounts.
import { atomicList, bool, field, int32, keyedList, list, named, enumStr, quantity, resourceList, str, stringList, struct, type Schema } from './builders.js';
import { Lifecycle, Probe } from './probe.js';
import { SecurityContext } from './security.js';

const CORE = 'io.k8s.api.core.v1';
export const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;

export const ContainerPort = named(
  `${CORE}.ContainerPort`,
  struct(
    'A network port of a container.',
    {
      name: str(
        'IANA service name for the port (at most 15 lowercase letters, digits and "-", with at least one letter); unique within the pod. Services can refer to the port by it.',
      ),
      hostPort: int32('Port to expose on the host (1-65535). With hostNetwork it must equal containerPort. Few pods need it.'),
      containerPort: int32("Port number on the pod's IP address (1-65535)."),
      protocol: enumStr('Protocol of the port: TCP, UDP or SCTP. Defaults to TCP.', PROTOCOLS, { default: 'TCP' }),
      hostIP: str('Host IP to bind the external port to.'),
    },
    ['containerPort'],
  ),
);

export const ObjectFieldSelector = named(
  `${CORE}.ObjectFieldSelector`,
  struct(
    'Selects a field of the pod.',
    {
      apiVersion: str('Version of the schema fieldPath is written in. Defaults to "v1".'),
      fieldPath: str("Path of the field, e.g. metadata.name, metadata.namespace, metadata.labels['app'], spec.nodeName, status.podIP."),
    },
    ['fieldPath'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

export const ResourceFieldSelector = named(
  `${CORE}.ResourceFieldSelector`,
  struct(
    'Selects a resource limit or request of a container.',
    {
      containerName: str('Container whose resources are read; required for volumes, optional for env vars.'),
      resource: str('Resource to read, e.g. limits.cpu, requests.memory.'),
      divisor: quantity('Unit the value is expressed in, e.g. "1m" or "1Mi". Defaults to "1".'),
    },
    ['resource'],
    { 'x-kubernetes-map-type': 'atomic' },
  ),
);

function keySelector(kind: 'ConfigMap' | 'Secret'): Schema {
  return named(
    `${CORE}.${kind}KeySelector`,
    struct(
      `Selects one key of a ${kind}.`,
      {
        name: str(`Name of the ${kind} in the pod's namespace.`),
        key: str(`The key to read.`),
        optional: bool(`When true, a missing ${kind} or key is not an error.`),
      },
      ['key'],
      { 'x-kubernetes-map-type': 'atomic' },
    ),
  );
}

export const ConfigMapKeySelector = keySelector('ConfigMap');
export const SecretKeySelector = keySelector('Secret');

export const EnvVarSource = named(
  `${CORE}.EnvVarSource`,
  struct('Where the value of an environment variable comes from. Exactly one source may be set.', {
    fieldRef: field(ObjectFieldSelector, 'A field of the pod.'),
    resourceFieldRef: field(ResourceFieldSelector, 'A resource limit or request of a container.'),
    configMapKeyRef: field(ConfigMapKeySelector, 'A key of a ConfigMap.'),
    secretKeyRef: field(SecretKeySelector, 'A key of a Secret.'),
  }),
);

export const EnvVar = named(
  `${CORE}.EnvVar`,
  struct(
    'An environment variable of a container.',
    {
      name: str('Name of the variable. Printable ASCII except "=".'),
      value: str('Value. $(VAR_NAME) references to variables defined earlier (or by the service environment) are expanded; $$ escapes a "$". Defaults to "".'),
      valueFrom: field(EnvVarSource, 'Source of the value; cannot be used when value is non-empty.'),
    },
    ['name'],
  ),
);

function refSource(kind: 'ConfigMap' | 'Secret'): Schema {
  return named(
    `${CORE}.${kind}EnvSource`,
    struct(`Exposes every key of a ${kind} as environment variables.`, {
      name: str(`Name of the ${kind} in the pod's namespace.`),
      optional: bool(`When true, a missing ${kind} is not an error.`),
    }),
  );
}

export const EnvFromSource = named(
  `${CORE}.EnvFromSource`,
  struct('A set of environment variables taken from a ConfigMap or Secret.', {
    prefix: str('Prefix added to every key to form the variable name.'),
    configMapRef: field(refSource('ConfigMap'), 'The ConfigMap to read.'),
    secretRef: field(refSource('Secret'), 'The Secret to read.'),
  }),
);

export const ResourceClaim = named(
  `${CORE}.ResourceClaim`,
  struct(
    "A reference to one entry of the pod's resourceClaims.",
    {
      name: str('Name of an entry of pod.spec.resourceClaims.'),
      request: str('Name of one request of the claim; empty means the whole claim.'),
    },
    ['name'],
  ),
);

export const ResourceRequirements = named(
  `${CORE}.ResourceRequirements`,
  struct('Compute resources a container asks for and is limited to.', {
    limits: resourceList('Maximum amount of each resource the container may use, e.g. {cpu: "1", memory: 512Mi}.'),
    requests: resourceList(
      'Amount of each resource the scheduler reserves for the container. Defaults to limits when only limits are given; may not exceed limits.',
    ),
    claims: list('Dynamically allocated resources (from pod.spec.resourceClaims) this container uses.', ResourceClaim, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    }),
  }),
);

export const VolumeMount = named(
  `${CORE}.VolumeMount`,
  struct(
    'Mounts a volume of the pod into a container.',
    {
      name: str("Name of one of the pod's volumes."),
      readOnly: bool('Mount read-only. Defaults to false.'),
      recursiveReadOnly: enumStr('Whether a read-only mount is also read-only for its submounts: Disabled, IfPossible or Enabled.', [
        'Disabled',
        'IfPossible',
        'Enabled',
      ]),
      mountPath: str('Path inside the container at which the volume is mounted; must not contain ":".'),
      subPath: str('Path within the volume to mount instead of its root. Defaults to "".'),
      mountPropagation: enumStr('How mounts propagate between host and container: None, HostToContainer or Bidirectional.', [
        'None',
        'HostToContainer',
        'Bidirectional',
      ]),
      subPathExpr: str("Like subPath, with $(VAR_NAME) expanded from the container's environment. Exclusive with subPath."),
    },
    ['name', 'mountPath'],
  ),
);

export const VolumeDevice = named(
  `${CORE}.VolumeDevice`,
  struct(
    'Maps a raw block volume into a container.',
    {
      name: str('Name of a persistentVolumeClaim volume of the pod.'),
      devicePath: str('Path of the device inside the container.'),
    },
    ['name', 'devicePath'],
  ),
);

export const ContainerResizePolicy = named(
  `${CORE}.ContainerResizePolicy`,
  struct(
    'How a resource of the container is resized in place.',
    {
      resourceName: str('Resource the policy applies to: cpu or memory.'),
      restartPolicy: enumStr('What happens on resize: NotRequired (resize live) or RestartContainer.', ['NotRequired', 'RestartContainer']),
    },
    ['resourceName', 'restartPolicy'],
  ),
);

/** Fields shared by Container and EphemeralContainer. */
function containerFields(): Record<string, Schema> {
  return {
    name: str('Name of the container: a DNS label, unique within the pod. Cannot be updated.'),
    image: str('Container image reference, e.g. nginx:1.27. Required for regular containers.'),
    command: stringList(
      "Entrypoint array, run without a shell; replaces the image's ENTRYPOINT. $(VAR_NAME) is expanded from the container environment. Cannot be updated.",
    ),
    args: stringList("Arguments to the entrypoint; replace the image's CMD. $(VAR_NAME) is expanded. Cannot be updated."),
    workingDir: str("Working directory; defaults to the image's. Cannot be updated."),
    ports: list('Ports the container exposes. Informational: any port listening on 0.0.0.0 is reachable. Cannot be updated.', ContainerPort, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    envFrom: atomicList('Sources of environment variables; keys become variable names. Variables in env take precedence. Cannot be updated.', EnvFromSource),
    env: keyedList('Environment variables to set in the container. Cannot be updated.', EnvVar, 'name'),
    resources: field(ResourceRequirements, 'Compute resources requested by and limited for this container.'),
    resizePolicy: atomicList('Per-resource policy for in-place resizing.', ContainerResizePolicy),
    restartPolicy: enumStr('Only for init containers: "Always" makes it a sidecar that keeps running beside the regular containers.', ['Always']),
    volumeMounts: keyedList("Volumes of the pod to mount into the container's filesystem. Cannot be updated.", VolumeMount, 'mountPath'),
    volumeDevices: keyedList('Block devices the container uses.', VolumeDevice, 'devicePath'),
    livenessProbe: field(Probe, 'Periodic check of container liveness; the container is restarted when it fails. Cannot be updated.'),
    readinessProbe: field(Probe, 'Periodic check of readiness to serve; the pod is removed from service endpoints while it fails. Cannot be updated.'),
    startupProbe: field(
      Probe,
      'Check that the container has started; other probes wait until it succeeds, and the container restarts when it fails. Cannot be updated.',
    ),
    lifecycle: field(Lifecycle, 'Actions to run on lifecycle events. Cannot be updated.'),
    terminationMessagePath: str(
      'File in the container whose contents are written to the termination message. Defaults to /dev/termination-log. Cannot be updated.',
    ),
    terminationMessagePolicy: enumStr(
      'How the termination message is filled: File (from terminationMessagePath) or FallbackToLogsOnError (the log tail when the file is empty and the container failed). Defaults to File.',
      ['File', 'FallbackToLogsOnError'],
    ),
    imagePullPolicy: enumStr(
      'When to pull the image: Always, Never or IfNotPresent. Defaults to Always for the :latest tag (or no tag), else IfNotPresent. Cannot be updated.',
      ['Always', 'IfNotPresent', 'Never'],
    ),
    securityContext: field(SecurityContext, 'Security options of the container; override the pod-level ones.'),
    stdin: bool('Allocate a buffer for stdin; reads from stdin get EOF when false. Defaults to false.'),
    stdinOnce: bool('Close stdin after the first attach session ends. Defaults to false.'),
    tty: bool('Allocate a TTY for the container (needs stdin). Defaults to false.'),
  };
}

export const Container = named(`${CORE}.Container`, struct('A single application container that runs within a pod.', containerFields(), ['name']));

export const EphemeralContainer = named(
  `${CORE}.EphemeralContainer`,
  struct(
    'A temporary container added to a running pod for debugging (kubectl debug). It has no resources, ports or probes and is never restarted.',
    {
      ...containerFields(),
      targetContainerName: str("Name of a container whose namespaces (e.g. process namespace) this container shares. Defaults to the pod's."),
    },
    ['name'],
  ),
);

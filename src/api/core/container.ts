// core/v1 Container and the types it is made of, as the API serves them (JSON field names;
// optional wherever Kubernetes omits the field). The schema in src/api/schemas/container.ts
// validates the same objects; these types are what code reads once they are stored.

export type Quantity = string | number;
export type IntOrString = number | string;

/** Selects a field of the pod (downward API): `metadata.name`, `status.podIP`, ... */
export interface ObjectFieldSelector {
  fieldPath: string;
  apiVersion?: string;
}

/** Selects a container's limit or request (downward API): `limits.cpu`, ... */
export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: Quantity;
}

/** Selects one key of a ConfigMap or Secret. */
export interface KeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: KeySelector;
  secretKeyRef?: KeySelector;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: Protocol;
}

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: Array<{ name: string; value: string }>;
}

/** A probe's or lifecycle hook's action (LifecycleHandler / ProbeHandler): exactly one is set. */
export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: IntOrString; host?: string };
  grpc?: { port: number; service?: string };
  sleep?: { seconds: number };
}

export interface Probe extends Handler {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface Lifecycle {
  postStart?: Handler;
  preStop?: Handler;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  subPathExpr?: string;
  readOnly?: boolean;
  recursiveReadOnly?: string;
  mountPropagation?: string;
}

export type ResourceList = Record<string, Quantity>;

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: Array<{ name: string; request?: string }>;
}

export interface Capabilities {
  add?: string[];
  drop?: string[];
}

/** The security fields a container and its pod share (PodSecurityContext adds pod-only ones). */
export interface CommonSecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  seLinuxOptions?: Record<string, string>;
  seccompProfile?: { type: string; localhostProfile?: string };
  appArmorProfile?: { type: string; localhostProfile?: string };
  windowsOptions?: Record<string, unknown>;
}

export interface SecurityContext extends CommonSecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: Capabilities;
  procMount?: string;
}

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  ports?: ContainerPort[];
  resources?: ResourceRequirements;
  /** On an init container, `Always` makes it a sidecar. */
  restartPolicy?: 'Always';
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Lifecycle;
  imagePullPolicy?: PullPolicy;
  securityContext?: SecurityContext;
  terminationMessagePath?: string;
  terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError';
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

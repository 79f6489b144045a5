// The parts of core/v1 Pod the agent reads and writes. The objects come from the API, which
// validated and defaulted them, so the agent trusts their shape; these interfaces name only
// the fields the agent uses, and keep it free of the server's schema library.
import type { KubeObject } from '../../api/meta.js';
import type { PortMapping } from '../runtime/runtime.js';
import type { ProjectedVolumeSource } from './projected-volume.js';

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface KeyRef {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string; apiVersion?: string };
    resourceFieldRef?: { containerName?: string; resource: string; divisor?: string | number };
    configMapKeyRef?: KeyRef;
    secretKeyRef?: KeyRef;
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: Array<{ name: string; value: string }>;
}

/** A probe's or lifecycle hook's action: exactly one of these is set. */
export interface Handler {
  exec?: { command?: string[] };
  httpGet?: HttpGetAction;
  tcpSocket?: { port: number | string; host?: string };
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

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  readOnly?: boolean;
}

export interface ResourceRequirements {
  limits?: Record<string, string | number>;
  requests?: Record<string, string | number>;
}

export interface ContainerSecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
}

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
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { postStart?: Handler; preStop?: Handler };
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  securityContext?: ContainerSecurityContext;
  terminationMessagePath?: string;
  terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError';
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface DownwardItem {
  path: string;
  fieldRef?: { fieldPath: string };
  mode?: number;
}

export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: string };
  hostPath?: { path: string; type?: string };
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  downwardAPI?: { items?: DownwardItem[]; defaultMode?: number };
  projected?: ProjectedVolumeSource;
  [other: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  containers: Container[];
  initContainers?: Container[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  volumes?: Volume[];
  runtimeClassName?: string;
  hostNetwork?: boolean;
  hostname?: string;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsUser?: number; runAsGroup?: number };
  readinessGates?: Array<{ conditionType: string }>;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ContainerStateWaiting {
  reason: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: string;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}

export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ApiContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: Array<{ ip: string }>;
  podIP?: string;
  podIPs?: Array<{ ip: string }>;
  startTime?: string;
  initContainerStatuses?: ApiContainerStatus[];
  containerStatuses?: ApiContainerStatus[];
  qosClass?: string;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

export interface Secret extends KubeObject {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export function podUid(pod: Pick<KubeObject, 'metadata'>): string {
  return pod.metadata.uid ?? '';
}

export function podFullName(pod: Pick<KubeObject, 'metadata'>): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}

export function restartPolicyOf(pod: Pod): RestartPolicy {
  return pod.spec.restartPolicy ?? 'Always';
}

/** The hostPorts the pod's sandbox publishes, from every container (init ones too). */
export function sandboxPorts(pod: Pod): PortMapping[] {
  const out: PortMapping[] = [];
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue;
      const mapping: PortMapping = { containerPort: p.containerPort, hostPort: p.hostPort, protocol: p.protocol === 'UDP' ? 'UDP' : 'TCP' };
      if (p.hostIP) mapping.hostIP = p.hostIP;
      out.push(mapping);
    }
  }
  return out;
}

export function isTerminalPhase(phase: string | undefined): phase is 'Succeeded' | 'Failed' {
  return phase === 'Succeeded' || phase === 'Failed';
}

// core/v1 Pod: spec, status and template, as the API serves them (JSON field names; optional
// wherever Kubernetes may omit the field). Every layer (controllers, agent, scheduler, checker)
// reads pods through these types; the schema in src/api/schemas/pod.ts validates the same
// objects. They are hand-written because the schema builders type every node as a bare TSchema,
// so TypeBox's Static would give `unknown` for each field.
import type { KubeObject, ObjectMeta } from '../meta.js';
import type { NodeAffinity } from '../scheduling/node-affinity.js';
import type { Toleration } from '../scheduling/tolerations.js';
import type { LabelSelectorObject } from '../selectors/index.js';
import type { CommonSecurityContext, Container, Quantity, ResourceRequirements } from './container.js';
import type { Volume } from './volume.js';

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodAffinityTerm {
  labelSelector?: LabelSelectorObject;
  namespaceSelector?: LabelSelectorObject;
  namespaces?: string[];
  topologyKey: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelectorObject;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export interface PodSecurityContext extends CommonSecurityContext {
  fsGroup?: number;
  fsGroupChangePolicy?: string;
  supplementalGroups?: number[];
  supplementalGroupsPolicy?: string;
  sysctls?: Array<{ name: string; value: string }>;
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: Array<Container & { targetContainerName?: string }>;
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: 'ClusterFirst' | 'ClusterFirstWithHostNet' | 'Default' | 'None';
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  /** Deprecated alias of serviceAccountName. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: PodSecurityContext;
  imagePullSecrets?: Array<{ name?: string }>;
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: Array<{ ip: string; hostnames?: string[] }>;
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: Array<{ name?: string; value?: string }> };
  readinessGates?: Array<{ conditionType: string }>;
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  overhead?: Record<string, Quantity>;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: { name: string };
  hostUsers?: boolean;
  schedulingGates?: Array<{ name: string }>;
  resourceClaims?: Array<{ name: string; resourceClaimName?: string; resourceClaimTemplateName?: string }>;
  resources?: ResourceRequirements;
}

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ContainerStateWaiting {
  reason?: string;
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

/** At most one of waiting, running, terminated; none means waiting. */
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

/** `state` and `lastState` are always served (as `{}` when empty), like Kubernetes' Go structs. */
export interface ContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: Record<string, Quantity>;
  resources?: ResourceRequirements;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: Array<{ ip: string }>;
  podIP?: string;
  podIPs?: Array<{ ip: string }>;
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort';
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

/** The pod a controller creates: its metadata (labels, annotations, ...) and its spec. */
export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

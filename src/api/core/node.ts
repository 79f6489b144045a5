// core/v1 Node: spec and status as the API serves them (JSON field names; optional wherever
// Kubernetes may omit the field). The agent writes them; the scheduler and the controllers read
// them. Taints come from src/api/scheduling, which holds the rules over them.
import type { KubeObject } from '../meta.js';
import type { Taint } from '../scheduling/taints.js';
import type { ConditionStatus } from './pod.js';
import type { Quantity } from './container.js';

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface NodeAddress {
  type: string;
  address: string;
}

export interface NodeDaemonEndpoints {
  kubeletEndpoint: { Port: number };
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
}

export interface NodeStatus {
  capacity?: Record<string, Quantity>;
  allocatable?: Record<string, Quantity>;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: NodeDaemonEndpoints;
  nodeInfo?: NodeSystemInfo;
  images?: Array<{ names?: string[]; sizeBytes?: number }>;
  volumesInUse?: string[];
  volumesAttached?: Array<{ name: string; devicePath: string }>;
}

export interface Node extends KubeObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}

// Taints (core/v1) and the well-known taint keys Kubernetes' node lifecycle controller, the
// DaemonSet controller and the scheduler agree on (k8s.io/api/core/v1 well_known_taints.go).

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  key: string;
  /** Absent reads as empty. */
  value?: string;
  effect: TaintEffect;
  /** When a NoExecute taint was added (the node lifecycle controller writes it). */
  timeAdded?: string;
}

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';

// The HorizontalPodAutoscaler (autoscaling/v2) as the controller reads and writes it.
import type { KubeObject } from '../../api/meta.js';

export interface MetricTarget {
  type: 'Utilization' | 'Value' | 'AverageValue';
  averageUtilization?: number;
  averageValue?: string | number;
  value?: string | number;
}

export interface MetricSpec {
  type: string;
  resource?: { name: string; target: MetricTarget };
  containerResource?: { name: string; container: string; target: MetricTarget };
}

export interface HpaCondition {
  type: 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface MetricStatus {
  type: string;
  resource?: { name: string; current: { averageUtilization?: number; averageValue?: string } };
  containerResource?: { name: string; container: string; current: { averageUtilization?: number; averageValue?: string } };
}

export interface HpaStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics?: MetricStatus[];
  conditions?: HpaCondition[];
}

export interface Hpa extends KubeObject {
  spec: {
    scaleTargetRef: { apiVersion?: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: MetricSpec[];
    behavior?: Record<string, unknown>;
  };
  status?: HpaStatus;
}

/** The autoscaling/v1 Scale the target's /scale subresource serves. */
export interface Scale {
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

// Which message table decodes which apiVersion/kind.
import { controllerRevision, daemonSet, deployment, replicaSet, statefulSet } from './messages/apps-v1.js';
import { selfSubjectReview, tokenRequest } from './messages/authentication-v1.js';
import { selfSubjectAccessReview, selfSubjectRulesReview } from './messages/authorization-v1.js';
import { cronJob, job } from './messages/batch-v1.js';
import { horizontalPodAutoscalerV1 } from './messages/autoscaling-v1.js';
import { lease } from './messages/coordination-v1.js';
import {
  binding,
  configMap,
  endpoints,
  event,
  limitRange,
  namespace,
  persistentVolumeClaim,
  resourceQuota,
  secret,
  service,
  serviceAccount,
} from './messages/core-v1.js';
import { node } from './messages/core-v1-node.js';
import { pod, podTemplate } from './messages/core-v1-pod.js';
import { replicationController } from './messages/core-v1-replication-controller.js';
import { deleteOptions } from './messages/meta-v1.js';
import { ingress, ingressClass, networkPolicy } from './messages/networking-v1.js';
import { eviction, podDisruptionBudget } from './messages/policy-v1.js';
import { certificateSigningRequest } from './messages/certificates-v1.js';
import { clusterRole, clusterRoleBinding, role, roleBinding } from './messages/rbac-v1.js';
import type { MessageSchema } from './messages/schema.js';
import { priorityClass } from './messages/scheduling-v1.js';

const BY_GROUP_VERSION: Readonly<Record<string, Readonly<Record<string, MessageSchema>>>> = {
  v1: {
    Namespace: namespace,
    ConfigMap: configMap,
    Secret: secret,
    ServiceAccount: serviceAccount,
    Service: service,
    Endpoints: endpoints,
    Pod: pod,
    PodTemplate: podTemplate,
    Binding: binding,
    Event: event,
    Node: node,
    ResourceQuota: resourceQuota,
    LimitRange: limitRange,
    PersistentVolumeClaim: persistentVolumeClaim,
    ReplicationController: replicationController,
  },
  'apps/v1': {
    Deployment: deployment,
    ReplicaSet: replicaSet,
    DaemonSet: daemonSet,
    StatefulSet: statefulSet,
    ControllerRevision: controllerRevision,
  },
  'batch/v1': { Job: job, CronJob: cronJob },
  'autoscaling/v1': { HorizontalPodAutoscaler: horizontalPodAutoscalerV1 },
  // policy/v1beta1 Eviction has the same message; older clients fall back to it.
  'policy/v1': { Eviction: eviction, PodDisruptionBudget: podDisruptionBudget },
  'policy/v1beta1': { Eviction: eviction },
  'coordination.k8s.io/v1': { Lease: lease },
  'rbac.authorization.k8s.io/v1': { Role: role, ClusterRole: clusterRole, RoleBinding: roleBinding, ClusterRoleBinding: clusterRoleBinding },
  'certificates.k8s.io/v1': { CertificateSigningRequest: certificateSigningRequest },
  'networking.k8s.io/v1': { Ingress: ingress, IngressClass: ingressClass, NetworkPolicy: networkPolicy },
  'scheduling.k8s.io/v1': { PriorityClass: priorityClass },
  'authentication.k8s.io/v1': { TokenRequest: tokenRequest, SelfSubjectReview: selfSubjectReview },
  'authorization.k8s.io/v1': { SelfSubjectAccessReview: selfSubjectAccessReview, SelfSubjectRulesReview: selfSubjectRulesReview },
};

/**
 * The table for a kind. DeleteOptions is registered in every group version (client-go labels it
 * with the version of the resource being deleted, or meta.k8s.io/v1), so it matches any.
 */
export function schemaFor(apiVersion: string, kind: string): MessageSchema | undefined {
  if (kind === 'DeleteOptions') return deleteOptions;
  const kinds = BY_GROUP_VERSION[apiVersion];
  return kinds !== undefined && Object.hasOwn(kinds, kind) ? kinds[kind] : undefined;
}

/** Every apiVersion/kind with a table, for messages and tests. */
export function supportedKinds(): string[] {
  const kinds = Object.entries(BY_GROUP_VERSION).flatMap(([apiVersion, byKind]) => Object.keys(byKind).map((kind) => `${apiVersion}/${kind}`));
  return [...kinds, '*/DeleteOptions'];
}

// Per-kind behaviour of the generic object registry that a schema cannot express, as in
// Kubernetes' registry strategies: what create initialises, graceful deletion, allocation.
import { isObject, metaTime, type KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Store } from '../../storage/store.js';
import { preserveServiceAllocations } from '../../api/defaults/core-defaults.js';
import { qosClassOf } from '../../api/defaults/pod-defaults.js';
import { generateJobSelector } from '../../api/defaults/workload-defaults.js';
import { allocateServiceAddresses, type ServiceRange } from './service-allocator.js';
import type { UserInfo } from '../../auth/types.js';
import { csrStrategy } from './csr-strategy.js';
import { crdStrategy } from '../crd/crd-strategy.js';

/** Gives back what a prepare step took, when the write does not land. */
export type Undo = () => void;

export interface StrategyContext {
  store: Store;
  def: ResourceDefinition;
  /** Who writes; undefined for writes from inside the server. */
  user?: UserInfo;
  /** 'status', 'approval', ... ; undefined for the main resource. */
  subresource?: string;
  /** Where Services' cluster IPs come from. */
  serviceRange: ServiceRange;
}

export interface Strategy {
  /** Kinds whose PUT may create a missing object (as Kubernetes allows for leases, endpoints, events). */
  allowCreateOnUpdate?: boolean;
  /**
   * Called on create, after defaulting and before validation. May return an undo: the registry
   * calls it when the write is refused later or is a dry run (e.g. addresses it reserved).
   */
  prepareForCreate?(object: KubeObject, ctx: StrategyContext): Promise<Undo | void> | Undo | void;
  /** Called on update (PUT, PATCH, apply) before defaulting; `old` is the stored object. May return an undo, as prepareForCreate. */
  prepareForUpdate?(object: KubeObject, old: KubeObject, ctx: StrategyContext): Promise<Undo | void> | Undo | void;
  /**
   * Seconds of graceful deletion for this object, or undefined to delete at once. Pods bound to
   * a node wait for their agent to stop the containers, as the kubelet does.
   */
  gracePeriod?(object: KubeObject, requested: number | undefined): number | undefined;
}

const podStrategy: Strategy = {
  prepareForCreate(pod) {
    pod['status'] = { phase: 'Pending', qosClass: qosClassOf(isObject(pod['spec']) ? pod['spec'] : {}) };
  },
  gracePeriod(pod, requested) {
    const spec = isObject(pod['spec']) ? pod['spec'] : {};
    if (typeof spec['nodeName'] !== 'string' || spec['nodeName'] === '') return undefined;
    const status = isObject(pod['status']) ? pod['status'] : {};
    // A pod that already finished has nothing left to stop.
    if (status['phase'] === 'Succeeded' || status['phase'] === 'Failed') return undefined;
    const grace = requested ?? (typeof spec['terminationGracePeriodSeconds'] === 'number' ? spec['terminationGracePeriodSeconds'] : 30);
    return grace > 0 ? grace : undefined;
  },
};

const namespaceStrategy: Strategy = {
  prepareForCreate(namespace) {
    namespace['status'] = { phase: 'Active' };
  },
  // As in Kubernetes, spec.finalizers change only through namespaces/finalize (the namespace
  // lifecycle's write): an update cannot release a namespace that still holds objects.
  prepareForUpdate(namespace, old, ctx) {
    if (ctx.subresource === 'finalize') return;
    const spec = isObject(namespace['spec']) ? namespace['spec'] : {};
    const kept = isObject(old['spec']) ? old['spec']['finalizers'] : undefined;
    if (kept === undefined) delete spec['finalizers'];
    else spec['finalizers'] = structuredClone(kept);
    namespace['spec'] = spec;
  },
};

const serviceStrategy: Strategy = {
  prepareForCreate(service, ctx) {
    return allocateServiceAddresses(service, ctx.store, ctx.def, ctx.serviceRange);
  },
  // A PUT without clusterIP or nodePorts keeps the allocated ones, as Kubernetes does; what is
  // still missing (node ports of a Service changed to NodePort) is allocated.
  prepareForUpdate(service, old, ctx) {
    preserveServiceAllocations(service, old);
    return allocateServiceAddresses(service, ctx.store, ctx.def, ctx.serviceRange, old.metadata.uid ?? '');
  },
};

const resetStatus: Strategy = {
  prepareForCreate(object) {
    delete object['status'];
  },
};

/** Claims start Pending whatever the client sent: the binder moves them on. */
const pendingStatus: Strategy = {
  prepareForCreate(object) {
    object['status'] = { phase: 'Pending' };
  },
};

/** Volumes too, and their phase's transition time starts with them, as Kubernetes records it. */
const pendingVolumeStatus: Strategy = {
  prepareForCreate(object) {
    object['status'] = { phase: 'Pending', lastPhaseTransitionTime: metaTime() };
  },
};

/** Jobs select their own pods by uid (known only now) unless the user asks for a manual selector. */
const jobStrategy: Strategy = {
  prepareForCreate(job) {
    delete job['status'];
    generateJobSelector(job);
  },
};

const strategies: Record<string, Strategy> = {
  '/Pod': podStrategy,
  '/Namespace': namespaceStrategy,
  '/Service': serviceStrategy,
  '/Endpoints': { allowCreateOnUpdate: true },
  '/Event': { allowCreateOnUpdate: true },
  'coordination.k8s.io/Lease': { allowCreateOnUpdate: true },
  'apps/Deployment': resetStatus,
  'apps/ReplicaSet': resetStatus,
  'apps/DaemonSet': resetStatus,
  'batch/Job': jobStrategy,
  // The quota controller and admission write status.used; a client's status is not taken on create.
  '/ResourceQuota': resetStatus,
  'batch/CronJob': resetStatus,
  'apps/StatefulSet': resetStatus,
  '/ReplicationController': resetStatus,
  '/PersistentVolume': pendingVolumeStatus,
  '/PersistentVolumeClaim': pendingStatus,
  'autoscaling/HorizontalPodAutoscaler': resetStatus,
  // kubectl auth reconcile and bootstrap tooling PUT roles and bindings that may not exist yet.
  'rbac.authorization.k8s.io/Role': { allowCreateOnUpdate: true },
  'rbac.authorization.k8s.io/ClusterRole': { allowCreateOnUpdate: true },
  'rbac.authorization.k8s.io/RoleBinding': { allowCreateOnUpdate: true },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { allowCreateOnUpdate: true },
  'certificates.k8s.io/CertificateSigningRequest': csrStrategy,
  'apiextensions.k8s.io/CustomResourceDefinition': crdStrategy,
};

export function strategyFor(def: ResourceDefinition): Strategy {
  return strategies[`${def.group}/${def.kind}`] ?? {};
}

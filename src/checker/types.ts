// The shapes every check shares: a Finding (one inconsistency, with the repair that would fix
// it) and the Snapshot of the cluster one round looks at.
import type { KubeObject } from '../api/meta.js';
import type { ApiClient } from '../client/index.js';
import type { AgentInventories } from './agents.js';

/** Stable names: the report's `kind`, the Event's reason and the metrics' label. */
export type FindingKind =
  | 'PodOnMissingNode'
  | 'LostPod'
  | 'OrphanContainer'
  | 'DanglingOwnerReference'
  | 'EndpointsMismatch'
  | 'EndpointSliceMismatch'
  | 'ServiceAddressCollision'
  | 'StuckTransaction'
  | 'PodGroupCountsMismatch'
  | 'StoreCorruption'
  | 'StoreInconsistency';

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

export interface Repair {
  /** What the repair does, in the report's words. */
  action: string;
  /**
   * True when the repair only makes a controller look at an object again (an annotation
   * touched): safe to run every round. Repairs that change or delete objects run only when
   * asked for (`drover check --repair`, `--data-check-repair`).
   */
  nudge: boolean;
  /**
   * Carries the repair out, checking first with live reads that the inconsistency still holds.
   * 'resolved': it no longer did, nothing was changed. Must be idempotent.
   */
  run(api: ApiClient): Promise<'repaired' | 'resolved'>;
}

export interface Finding {
  kind: FindingKind;
  /** The object at fault; its Event goes there (to the report when there is none). */
  object?: ObjectRef;
  message: string;
  repair?: Repair;
}

/** Everything one round reads from the API, listed once. */
export interface Snapshot {
  /** When the lists were taken (epoch ms). */
  now: number;
  pods: KubeObject[];
  nodes: KubeObject[];
  /** kube-node-lease Leases, by node name. */
  nodeLeases: Map<string, KubeObject>;
  services: KubeObject[];
  endpoints: KubeObject[];
  endpointSlices: KubeObject[];
  transactions: KubeObject[];
  /** scheduling.x-k8s.io PodGroups (gangs). */
  podGroups: KubeObject[];
  /** Every object of the kinds that own others, by uid (pods, ReplicaSets, Deployments, ...). */
  byUid: Map<string, KubeObject>;
  /** Objects that carry ownerReferences. */
  dependents: KubeObject[];
  /** What the node agents hold, when the round asked them (see agents.ts). */
  agentPods?: AgentInventories;
}

export interface CheckOptions {
  /** An agent silent this long has lost its pods: 4 status intervals of 10 s (the original: 4 × 180 s). */
  lostAfterMs: number;
  /** Changes younger than this are left to the controllers still catching up. */
  settleMs: number;
}

export function refOf(object: KubeObject): ObjectRef {
  const ref: ObjectRef = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name ?? '' };
  if (object.metadata.namespace) ref.namespace = object.metadata.namespace;
  if (object.metadata.uid) ref.uid = object.metadata.uid;
  return ref;
}

export function describe(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

export interface CheckContext {
  api: ApiClient;
  options: CheckOptions;
}

/** One kind of check: reads the snapshot (and confirms with live reads), returns what it found. */
export type Check = (snapshot: Snapshot, ctx: CheckContext) => Promise<Finding[]>;

// What the binder, the scheduler and the agent read of claims, volumes and classes, in one
// place: a claim's class, request and access modes; a volume's capacity, class and node
// affinity; whether a volume is bound to a claim. Tolerant of odd shapes (validated objects
// may still come from an older server).
import type { KubeObject } from '../meta.js';
import { controllerRefOf } from '../owner-references.js';
import { compare, parseQuantity, ZERO, type Quantity } from '../quota/quantity.js';
import { compileNodeSelector, type NodeFields, type NodeSelector } from '../scheduling/node-affinity.js';
import { fromLabelSelectorObject } from '../selectors/index.js';
import { at, listAt, recordAt, stringAt } from '../printers/read.js';
import { ANN_BETA_DEFAULT_CLASS, ANN_BETA_STORAGE_CLASS, ANN_DEFAULT_CLASS } from './names.js';

export type Phase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';
export type ClaimPhase = 'Pending' | 'Bound' | 'Lost';

/** The claim of a pod's generic ephemeral volume: `<pod>-<volume>` (the ephemeral volume controller makes it). */
export function ephemeralClaimName(podName: string, volumeName: string): string {
  return `${podName}-${volumeName}`;
}

/** Whether the claim was made for this pod (the pod is its controller): an ephemeral volume's must be. */
export function isOwnedByPod(claim: Readonly<KubeObject>, pod: Readonly<KubeObject>): boolean {
  const ref = controllerRefOf(claim);
  return ref?.kind === 'Pod' && ref.uid === pod.metadata.uid;
}

/** The claims a pod's volumes use: persistentVolumeClaim sources and ephemeral volumes' claims. */
export function podClaimNames(pod: Readonly<KubeObject>): string[] {
  const names: string[] = [];
  for (const volume of listAt(pod, 'spec', 'volumes')) {
    const claimName = stringAt(volume, 'persistentVolumeClaim', 'claimName');
    if (claimName) names.push(claimName);
    if (at(volume, 'ephemeral') !== undefined) names.push(ephemeralClaimName(pod.metadata.name ?? '', stringAt(volume, 'name')));
  }
  return names;
}

/** The claim's class: the beta annotation, else spec.storageClassName; '' means "no class". */
export function claimClass(claim: Readonly<KubeObject>): string {
  return claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] ?? stringAt(claim, 'spec', 'storageClassName');
}

export function volumeClass(volume: Readonly<KubeObject>): string {
  return volume.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] ?? stringAt(volume, 'spec', 'storageClassName');
}

export function storageRequest(claim: Readonly<KubeObject>): Quantity {
  return parseQuantity(at(claim, 'spec', 'resources', 'requests', 'storage')) ?? ZERO;
}

export function volumeCapacity(volume: Readonly<KubeObject>): Quantity {
  return parseQuantity(at(volume, 'spec', 'capacity', 'storage')) ?? ZERO;
}

export function accessModes(object: Readonly<KubeObject>): string[] {
  return listAt(object, 'spec', 'accessModes').filter((m): m is string => typeof m === 'string');
}

export function volumeMode(object: Readonly<KubeObject>): string {
  return stringAt(object, 'spec', 'volumeMode') || 'Filesystem';
}

export function volumePhase(volume: Readonly<KubeObject>): string {
  return stringAt(volume, 'status', 'phase');
}

export function claimPhase(claim: Readonly<KubeObject>): string {
  return stringAt(claim, 'status', 'phase');
}

export function reclaimPolicy(volume: Readonly<KubeObject>): string {
  return stringAt(volume, 'spec', 'persistentVolumeReclaimPolicy') || 'Retain';
}

export function isDefaultClass(storageClass: Readonly<KubeObject>): boolean {
  const annotations = storageClass.metadata.annotations ?? {};
  return annotations[ANN_DEFAULT_CLASS] === 'true' || annotations[ANN_BETA_DEFAULT_CLASS] === 'true';
}

/** The claim a volume's claimRef names, as `namespace/name` ('' when none). */
export function claimRefKey(volume: Readonly<KubeObject>): string {
  const ref = recordAt(volume, 'spec', 'claimRef');
  const name = typeof ref['name'] === 'string' ? ref['name'] : '';
  return name ? `${typeof ref['namespace'] === 'string' ? ref['namespace'] : ''}/${name}` : '';
}

/** Whether the volume's claimRef names this claim (a ref without uid names any claim of that name). */
export function isBoundToClaim(volume: Readonly<KubeObject>, claim: Readonly<KubeObject>): boolean {
  const ref = recordAt(volume, 'spec', 'claimRef');
  if (ref['name'] !== claim.metadata.name || (ref['namespace'] ?? '') !== (claim.metadata.namespace ?? '')) return false;
  return typeof ref['uid'] !== 'string' || ref['uid'] === '' || ref['uid'] === claim.metadata.uid;
}

/** Whether a pod on this node can reach the volume (no nodeAffinity: any node). */
export function volumeFitsNode(volume: Readonly<KubeObject>, node: NodeFields): boolean {
  const required = at(volume, 'spec', 'nodeAffinity', 'required');
  if (required === undefined) return true;
  return compileNodeSelector(required as NodeSelector)(node);
}

/** The volume's access modes include every mode the claim asks for. */
export function hasAccessModes(volume: Readonly<KubeObject>, claim: Readonly<KubeObject>): boolean {
  const offered = new Set(accessModes(volume));
  return accessModes(claim).every((mode) => offered.has(mode));
}

/** The claim's label selector over volumes; undefined when it has none (a malformed one selects nothing). */
export function claimSelector(claim: Readonly<KubeObject>): ((labels: Readonly<Record<string, string>>) => boolean) | undefined {
  const selector = at(claim, 'spec', 'selector');
  if (selector === undefined) return undefined;
  try {
    const compiled = fromLabelSelectorObject(selector as Record<string, unknown>);
    return (labels) => compiled.matches(labels);
  } catch {
    return () => false;
  }
}

export interface MatchOptions {
  /** Only volumes reachable from this node (the scheduler's question, and WaitForFirstConsumer claims). */
  node?: NodeFields;
  /** The claim's class binds late: without a node, volumes are not matched at all. */
  delayBinding?: boolean;
}

/**
 * The volume a claim should bind to, as Kubernetes' FindMatchingVolume picks it: a volume
 * already reserved for the claim (claimRef) wins; otherwise the smallest Available, unclaimed
 * volume of the claim's class and volume mode with enough capacity, the access modes asked
 * for, labels the claim's selector matches and (given a node) an affinity that node meets.
 */
export function findMatchingVolume(
  claim: Readonly<KubeObject>,
  volumes: Iterable<Readonly<KubeObject>>,
  options: MatchOptions = {},
): Readonly<KubeObject> | undefined {
  const requested = storageRequest(claim);
  const wantedClass = claimClass(claim);
  const selects = claimSelector(claim);
  let smallest: Readonly<KubeObject> | undefined;
  for (const volume of volumes) {
    const capacity = volumeCapacity(volume);
    if (compare(capacity, requested) < 0) continue;
    if (volumeMode(volume) !== volumeMode(claim)) continue;
    if (volume.metadata.deletionTimestamp) continue;
    const reachable = options.node === undefined || volumeFitsNode(volume, options.node);
    if (isBoundToClaim(volume, claim)) return reachable ? volume : undefined;
    if (options.node === undefined && options.delayBinding) continue;
    if (volumePhase(volume) !== 'Available' || claimRefKey(volume) !== '') continue;
    if (selects && !selects(volume.metadata.labels ?? {})) continue;
    if (volumeClass(volume) !== wantedClass || !reachable || !hasAccessModes(volume, claim)) continue;
    if (smallest === undefined || compare(volumeCapacity(smallest), capacity) > 0) smallest = volume;
  }
  return smallest;
}

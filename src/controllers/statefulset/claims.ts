// The PersistentVolumeClaims of a StatefulSet's volumeClaimTemplates: claim `<template>-<set>-<ordinal>`
// is created before the pod of that ordinal (and never replaced: the data outlives the pod), and
// persistentVolumeClaimRetentionPolicy decides whether it goes when the set is deleted
// (whenDeleted: Delete makes the set an owner, so the garbage collector deletes it) or when a
// scale-down removes its pod (whenScaled: Delete makes the condemned pod an owner).
// A claim that cannot be created leaves its pod uncreated (a FailedCreate event says why).
import type { KubeObject, OwnerReference } from '../../api/meta.js';
import { isAlreadyExists, isNotFound, resources, type ApiClient } from '../../client/index.js';
import type { ClaimTemplate, StatefulSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export function claimName(template: Readonly<ClaimTemplate>, set: Readonly<StatefulSet>, ordinal: number): string {
  return `${template.metadata?.name ?? ''}-${set.metadata.name}-${ordinal}`;
}

function ownerRef(owner: Readonly<KubeObject>): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name!, uid: owner.metadata.uid! };
}

/** The claim of one template for one ordinal: its labels also carry the set's matchLabels, as Kubernetes'. */
export function newClaim(template: Readonly<ClaimTemplate>, set: Readonly<StatefulSet>, ordinal: number): KubeObject {
  const labels = { ...template.metadata?.labels, ...set.spec.selector.matchLabels };
  const metadata: KubeObject['metadata'] = { name: claimName(template, set, ordinal), namespace: set.metadata.namespace ?? 'default', labels };
  if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  if (set.spec.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete') metadata.ownerReferences = [ownerRef(set)];
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata, spec: structuredClone(template.spec ?? {}) };
}

export class StatefulClaims {
  constructor(private readonly api: ApiClient) {}

  /** Creates the ordinal's missing claims; an existing claim (from an earlier pod) is kept as it is. */
  async ensure(set: Readonly<StatefulSet>, ordinal: number): Promise<void> {
    for (const template of set.spec.volumeClaimTemplates ?? []) {
      const claim = newClaim(template, set, ordinal);
      try {
        await this.client(set).create(claim);
      } catch (error) {
        if (!isAlreadyExists(error))
          throw new Error(
            `create Claim ${claim.metadata.name} for Pod ${set.metadata.name}-${ordinal} in StatefulSet ${set.metadata.name} failed: ${(error as Error).message}`,
            { cause: error },
          );
      }
    }
  }

  /** A scale-down removes `pod`: with whenScaled Delete its claims get the pod as owner and go with it. */
  async condemned(set: Readonly<StatefulSet>, pod: Readonly<Pod>, ordinal: number): Promise<void> {
    if (set.spec.persistentVolumeClaimRetentionPolicy?.whenScaled !== 'Delete') return;
    for (const template of set.spec.volumeClaimTemplates ?? []) {
      const name = claimName(template, set, ordinal);
      try {
        const claim = await this.client(set).get(name);
        const refs = claim.metadata.ownerReferences ?? [];
        if (refs.some((ref) => ref.uid === pod.metadata.uid)) continue;
        await this.client(set).patch(name, 'merge', {
          metadata: { ownerReferences: [...refs, ownerRef(pod)], resourceVersion: claim.metadata.resourceVersion },
        });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }

  private client(set: Readonly<StatefulSet>) {
    return this.api.resource(resources.persistentvolumeclaims, set.metadata.namespace);
  }
}

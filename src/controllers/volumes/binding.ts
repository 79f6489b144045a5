// The writes that bind a claim and a volume to each other, in Kubernetes' order: the volume's
// claimRef first (so no other claim can take it), then its phase, then the claim's volumeName,
// then the claim's phase, capacity and access modes. Each write carries the resourceVersion it
// read: a write that loses a race fails with a conflict and the next sync starts again from the
// informers' newer objects, so a volume is never bound to two claims.
import { metaTime, type KubeObject } from '../../api/meta.js';
import { ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER } from '../../api/volumes/names.js';
import { resources, type ApiClient } from '../../client/index.js';
import { semanticEqual } from '../../util/json-equal.js';

type Obj = Record<string, unknown>;

function copy(object: Readonly<KubeObject>): KubeObject {
  return structuredClone(object) as KubeObject;
}

function specOf(object: KubeObject): Obj {
  return (object['spec'] ??= {}) as Obj;
}

function annotate(object: KubeObject, key: string, value: string): void {
  object.metadata.annotations = { ...(object.metadata.annotations ?? {}), [key]: value };
}

export function claimReference(claim: Readonly<KubeObject>): Obj {
  return {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    namespace: claim.metadata.namespace,
    name: claim.metadata.name,
    uid: claim.metadata.uid,
    resourceVersion: claim.metadata.resourceVersion,
  };
}

export class VolumeWrites {
  constructor(private readonly api: ApiClient) {}

  /** The volume's phase (with its transition time), unless it is so already; resolves with the volume as written. */
  async volumePhase(volume: Readonly<KubeObject>, phase: string, message?: string): Promise<KubeObject> {
    const status = (volume['status'] ?? {}) as Obj;
    if (status['phase'] === phase && status['message'] === message) return volume as KubeObject;
    const next = copy(volume);
    const transition = status['phase'] === phase ? status['lastPhaseTransitionTime'] : metaTime();
    next['status'] = { phase, ...(message ? { message } : {}), ...(transition ? { lastPhaseTransitionTime: transition } : {}) };
    return this.api.resource(resources.persistentvolumes).updateStatus(next);
  }

  /** Binds the volume to the claim (claimRef) and marks it Bound. */
  async bindVolume(volume: Readonly<KubeObject>, claim: Readonly<KubeObject>): Promise<KubeObject> {
    let written = volume as KubeObject;
    const ref = (volume['spec'] as Obj | undefined)?.['claimRef'] as Obj | undefined;
    if (ref?.['uid'] !== claim.metadata.uid) {
      const next = copy(volume);
      specOf(next)['claimRef'] = claimReference(claim);
      // A claimRef the user wrote (pre-binding) is theirs; one the binder writes may be undone by it.
      if (ref === undefined) annotate(next, ANN_BOUND_BY_CONTROLLER, 'yes');
      written = await this.api.resource(resources.persistentvolumes).update(next);
    }
    return this.volumePhase(written, 'Bound');
  }

  /** Takes the binder's claimRef off a volume whose claim went to another volume. */
  async unbindVolume(volume: Readonly<KubeObject>): Promise<void> {
    const next = copy(volume);
    delete specOf(next)['claimRef'];
    if (next.metadata.annotations) delete next.metadata.annotations[ANN_BOUND_BY_CONTROLLER];
    await this.volumePhase(await this.api.resource(resources.persistentvolumes).update(next), 'Available');
  }

  /** Points the claim at the volume and marks it Bound with the volume's capacity and modes. */
  async bindClaim(claim: Readonly<KubeObject>, volume: Readonly<KubeObject>): Promise<void> {
    let written = claim as KubeObject;
    const spec = (claim['spec'] ?? {}) as Obj;
    if (spec['volumeName'] !== volume.metadata.name || claim.metadata.annotations?.[ANN_BIND_COMPLETED] !== 'yes') {
      const next = copy(claim);
      if (spec['volumeName'] !== volume.metadata.name) annotate(next, ANN_BOUND_BY_CONTROLLER, 'yes');
      specOf(next)['volumeName'] = volume.metadata.name;
      annotate(next, ANN_BIND_COMPLETED, 'yes');
      written = await this.api.resource(resources.persistentvolumeclaims, claim.metadata.namespace).update(next);
    }
    const volumeSpec = (volume['spec'] ?? {}) as Obj;
    await this.claimStatus(written, { phase: 'Bound', accessModes: volumeSpec['accessModes'] ?? [], capacity: volumeSpec['capacity'] ?? {} });
  }

  /** The claim's status, unless it is so already. */
  async claimStatus(claim: Readonly<KubeObject>, status: Obj): Promise<void> {
    const current = (claim['status'] ?? {}) as Obj;
    if (Object.entries(status).every(([key, value]) => semanticEqual(current[key], value))) return;
    const next = copy(claim);
    next['status'] = { ...current, ...status };
    await this.api.resource(resources.persistentvolumeclaims, claim.metadata.namespace).updateStatus(next);
  }
}

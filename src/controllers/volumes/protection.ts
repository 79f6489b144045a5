// Kubernetes' pvc-protection and pv-protection controllers: the finalizers admission put on
// claims and volumes are lifted only when it is safe. A claim being deleted keeps
// kubernetes.io/pvc-protection while any pod that is not finished uses it (as a
// persistentVolumeClaim volume, or the claim of an ephemeral volume); a volume being deleted
// keeps kubernetes.io/pv-protection while it is Bound. The informer's cache may not have seen a
// pod created a moment ago: before the claim's finalizer goes, the namespace's pods are listed
// live from the API server, as Kubernetes' controller asks the API server (askAPIServer).
import type { KubeObject } from '../../api/meta.js';
import { podClaimNames, volumePhase } from '../../api/volumes/claims.js';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../api/volumes/names.js';
import { indexers, isConflict, isNotFound, resources, type EventRecorder, type Informer, type ReconcileResult, type ResourceRef } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { NAMESPACE_INDEX } from '../shape/indexes.js';
import { QueueShape, ShapeGroup } from '../shape/workload-controller.js';
import { isPodTerminal } from '../endpoints/pods.js';
import { storageQueue } from './storage-queue.js';
import type { Pod } from '../../api/core/index.js';

/** The pods among `pods` that are not finished and use the claim named `claimName`. */
function claimUsers(pods: readonly Readonly<KubeObject>[], claimName: string): Readonly<KubeObject>[] {
  return pods.filter((pod) => !isPodTerminal(pod as Pod) && podClaimNames(pod).includes(claimName));
}

export class StorageProtectionController extends ShapeGroup {
  /** Two queues, as Kubernetes' pvc-protection and pv-protection controllers. */
  private readonly claims: QueueShape<KubeObject>;
  private readonly volumes: QueueShape<KubeObject>;
  private readonly pods: Informer<KubeObject>;
  private readonly events: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    super('storage-protection-controller');
    this.events = ctx.recorder('pvc-protection-controller');
    this.claims = this.add(storageQueue(ctx, 'pvc-protection', resources.persistentvolumeclaims, { reconcile: (key) => this.syncClaim(key) }));
    this.volumes = this.add(storageQueue(ctx, 'pv-protection', resources.persistentvolumes, { reconcile: (key) => this.syncVolume(key) }));
    // A claim's last user finishing or going lets the claim go.
    const podChanged = (pod: Readonly<KubeObject>) => {
      for (const name of podClaimNames(pod)) this.claims.queue.add(`${pod.metadata.namespace ?? ''}/${name}`);
    };
    this.pods = this.claims.watches(resources.pods, { onUpdate: (_old, pod) => isPodTerminal(pod as Pod) && podChanged(pod), onDelete: podChanged });
    this.pods.addIndexer(NAMESPACE_INDEX, indexers.namespace);
  }

  private async syncClaim(key: string): Promise<ReconcileResult | void> {
    const claim = this.claims.primary.get(key);
    if (!claim?.metadata.deletionTimestamp || !claim.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER)) return;
    const namespace = claim.metadata.namespace ?? '';
    let users = claimUsers(this.pods.byIndex(NAMESPACE_INDEX, namespace), claim.metadata.name ?? '');
    // The cache shows no user; a pod just created may not be in it yet, so ask the API server.
    if (users.length === 0) users = claimUsers((await this.ctx.api.resource(resources.pods, namespace).list()).items, claim.metadata.name ?? '');
    if (users.length > 0) {
      void this.events.record(
        claim,
        'Normal',
        'InUse',
        `The claim is in use by pod(s) ${users.map((p) => p.metadata.name).join(', ')}: it is deleted once they are gone`,
      );
      return;
    }
    return this.dropFinalizer(resources.persistentvolumeclaims, claim, PVC_PROTECTION_FINALIZER);
  }

  private async syncVolume(key: string): Promise<ReconcileResult | void> {
    const volume = this.volumes.primary.get(key);
    if (!volume?.metadata.deletionTimestamp || !volume.metadata.finalizers?.includes(PV_PROTECTION_FINALIZER)) return;
    if (volumePhase(volume) === 'Bound') return;
    return this.dropFinalizer(resources.persistentvolumes, volume, PV_PROTECTION_FINALIZER);
  }

  private async dropFinalizer(ref: ResourceRef, object: Readonly<KubeObject>, finalizer: string): Promise<ReconcileResult | void> {
    const next = structuredClone(object) as KubeObject;
    next.metadata.finalizers = (object.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    try {
      await this.ctx.api.resource(ref, object.metadata.namespace).update(next);
    } catch (error) {
      if (isNotFound(error)) return;
      if (isConflict(error)) return { requeueAfterMs: 500 };
      throw error;
    }
  }
}

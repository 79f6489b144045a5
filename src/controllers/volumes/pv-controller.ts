// The PersistentVolume controller (Kubernetes' binder): binds each pending claim to the volume
// that fits it best (src/api/volumes/claims.ts), or asks its class's provisioner for one; keeps
// both sides' phases true (Available, Bound, Released, Failed; Pending, Bound, Lost); and when a
// claim is deleted, releases its volume and reclaims it by policy: Retain keeps it Released, Delete
// is the provisioner's to carry out (local-path: local-path-provisioner.ts). Claims of a
// WaitForFirstConsumer class are bound only once the scheduler has picked their first pod's node.
import type { KubeObject } from '../../api/meta.js';
import {
  claimClass,
  claimPhase,
  claimRefKey,
  findMatchingVolume,
  isBoundToClaim,
  reclaimPolicy,
  storageRequest,
  volumeCapacity,
  volumeClass,
  volumeMode,
  volumePhase,
} from '../../api/volumes/claims.js';
import { compare } from '../../api/quota/quantity.js';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
} from '../../api/volumes/names.js';
import { isConflict, isNotFound, objectKey, resources, type EventRecorder, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { QueueShape, ShapeGroup } from '../shape/workload-controller.js';
import { VolumeWrites } from './binding.js';
import { storageQueue } from './storage-queue.js';

/** Classes without a provisioner: their claims bind only to volumes made by hand. */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

export class PersistentVolumeController extends ShapeGroup {
  /** Two queues, claims and volumes, as Kubernetes' binder runs them. */
  private readonly claims: QueueShape<KubeObject>;
  private readonly volumes: QueueShape<KubeObject>;
  private readonly classes: Informer<KubeObject>;
  private readonly nodes: Informer<KubeObject>;
  private readonly events: EventRecorder;
  private readonly writes: VolumeWrites;

  constructor(private readonly ctx: ControllerContext) {
    super('persistentvolume-binder-controller');
    this.events = ctx.recorder('persistentvolume-controller');
    this.writes = new VolumeWrites(ctx.api);
    this.claims = this.add(
      storageQueue(ctx, `${this.name} claims`, resources.persistentvolumeclaims, { reconcile: (key) => this.guard(() => this.syncClaim(key)) }),
    );
    // A volume's events are looked at by volumeChanged (which enqueues it too).
    this.volumes = this.add(
      storageQueue(ctx, `${this.name} volumes`, resources.persistentvolumes, {
        reconcile: (key) => this.guard(() => this.syncVolume(key)),
        predicates: { add: () => false, update: () => false },
      }),
    );
    // The volume a deleted claim was bound to is released.
    this.claims.primary.addEventHandler({ onDelete: (claim) => this.enqueueVolumeOf(claim) });
    this.volumes.primary.addEventHandler({
      onAdd: (volume) => this.volumeChanged(volume),
      onUpdate: (_old, volume) => this.volumeChanged(volume),
      onDelete: (volume) => this.enqueueClaimOf(volume),
    });
    this.classes = ctx.factory.informerFor(resources.storageclasses);
    this.nodes = ctx.factory.informerFor(resources.nodes);
    // A class made after its claims: they can be provisioned now.
    this.classes.addEventHandler({ onAdd: () => this.enqueuePendingClaims() });
  }

  private volumeChanged(volume: Readonly<KubeObject>): void {
    this.volumes.queue.add(objectKey(volume));
    this.enqueueClaimOf(volume);
    // A volume that became Available may fit a waiting claim.
    if (volumePhase(volume) === 'Available' && claimRefKey(volume) === '') this.enqueuePendingClaims();
  }

  private enqueueClaimOf(volume: Readonly<KubeObject>): void {
    const key = claimRefKey(volume);
    if (key) this.claims.queue.add(key);
  }

  private enqueueVolumeOf(claim: Readonly<KubeObject>): void {
    const name = (claim['spec'] as { volumeName?: string } | undefined)?.volumeName;
    if (name) this.volumes.queue.add(name);
    for (const volume of this.volumes.primary.list()) if (isBoundToClaim(volume, claim)) this.volumes.queue.add(objectKey(volume));
  }

  private enqueuePendingClaims(): void {
    for (const claim of this.claims.primary.list()) if (claimPhase(claim) !== 'Bound') this.claims.queue.add(objectKey(claim));
  }

  /** A write that lost a race waits for the informer's newer object, whose event enqueues the key again. */
  private async guard(sync: () => Promise<ReconcileResult | void>): Promise<ReconcileResult | void> {
    try {
      return await sync();
    } catch (error) {
      if (isConflict(error) || isNotFound(error)) return { requeueAfterMs: 1000 };
      throw error;
    }
  }

  private async syncClaim(key: string): Promise<ReconcileResult | void> {
    const claim = this.claims.primary.get(key);
    if (!claim || claim.metadata.deletionTimestamp) return;
    const volumeName = (claim['spec'] as { volumeName?: string } | undefined)?.volumeName ?? '';
    return volumeName === '' ? this.syncUnboundClaim(claim) : this.syncBoundClaim(claim, volumeName);
  }

  private async syncUnboundClaim(claim: Readonly<KubeObject>): Promise<ReconcileResult | void> {
    const className = claimClass(claim);
    const storageClass = className === '' ? undefined : this.classes.get(className);
    const delayBinding = storageClass?.['volumeBindingMode'] === 'WaitForFirstConsumer';
    const selectedNode = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    const node = selectedNode === undefined ? undefined : this.nodes.get(selectedNode);
    const nodeFields = node ? { name: node.metadata.name ?? '', labels: node.metadata.labels ?? {} } : undefined;
    const volume = findMatchingVolume(claim, this.volumes.primary.list(), { delayBinding, ...(nodeFields ? { node: nodeFields } : {}) });
    if (volume) {
      await this.writes.bindVolume(volume, claim);
      await this.writes.bindClaim(claim, volume);
      return;
    }
    await this.writes.claimStatus(claim, { phase: 'Pending' });
    if (delayBinding && selectedNode === undefined) {
      void this.events.record(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
      return;
    }
    if (className !== '' && !storageClass) {
      void this.events.record(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    const provisioner = typeof storageClass?.['provisioner'] === 'string' ? storageClass['provisioner'] : '';
    if (provisioner === '' || provisioner === NO_PROVISIONER) {
      const why =
        className === '' ? 'no persistent volumes available for this claim and no storage class is set' : 'no persistent volumes available for this claim';
      void this.events.record(claim, 'Normal', 'FailedBinding', why);
      return;
    }
    await this.askProvisioner(claim, provisioner);
  }

  /** Marks the claim for its class's provisioner, as Kubernetes does for external provisioners. */
  private async askProvisioner(claim: Readonly<KubeObject>, provisioner: string): Promise<void> {
    const annotations = claim.metadata.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== provisioner) {
      const next = structuredClone(claim) as KubeObject;
      next.metadata.annotations = { ...annotations, [ANN_STORAGE_PROVISIONER]: provisioner, [ANN_BETA_STORAGE_PROVISIONER]: provisioner };
      await this.ctx.api.resource(resources.persistentvolumeclaims, claim.metadata.namespace).update(next);
    }
    void this.events.record(
      claim,
      'Normal',
      'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
  }

  private async syncBoundClaim(claim: Readonly<KubeObject>, volumeName: string): Promise<ReconcileResult | void> {
    const volume = this.volumes.primary.get(volumeName);
    const completed = claim.metadata.annotations?.[ANN_BIND_COMPLETED] === 'yes';
    if (!volume) {
      if (completed || claimPhase(claim) === 'Bound') {
        if (claimPhase(claim) !== 'Lost')
          void this.events.record(claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
        await this.writes.claimStatus(claim, { phase: 'Lost' });
      } else {
        await this.writes.claimStatus(claim, { phase: 'Pending' });
      }
      return;
    }
    if (claimRefKey(volume) === '') {
      // Pre-bound by the user to a free volume: bind it if it fits.
      const mismatch = this.mismatch(claim, volume);
      if (mismatch) {
        void this.events.record(claim, 'Warning', 'VolumeMismatch', `Cannot bind to requested volume "${volumeName}": ${mismatch}`);
        await this.writes.claimStatus(claim, { phase: 'Pending' });
        return;
      }
      await this.writes.bindVolume(volume, claim);
      await this.writes.bindClaim(claim, volume);
      return;
    }
    if (isBoundToClaim(volume, claim)) {
      await this.writes.bindVolume(volume, claim);
      await this.writes.bindClaim(claim, volume);
      return;
    }
    if (completed) {
      void this.events.record(claim, 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
      await this.writes.claimStatus(claim, { phase: 'Lost' });
      return;
    }
    void this.events.record(claim, 'Warning', 'FailedBinding', `volume "${volumeName}" already bound to a different claim.`);
    await this.writes.claimStatus(claim, { phase: 'Pending' });
  }

  /** Why a free volume the user named cannot take the claim, if it cannot. */
  private mismatch(claim: Readonly<KubeObject>, volume: Readonly<KubeObject>): string | undefined {
    if (compare(volumeCapacity(volume), storageRequest(claim)) < 0) return 'requested PV is too small';
    if (volumeClass(volume) !== claimClass(claim)) return 'storageClassName does not match';
    if (volumeMode(volume) !== volumeMode(claim)) return 'incompatible volumeMode';
    return undefined;
  }

  private async syncVolume(key: string): Promise<ReconcileResult | void> {
    const volume = this.volumes.primary.get(key);
    if (!volume) return;
    const claimKey = claimRefKey(volume);
    if (claimKey === '') {
      if (volumePhase(volume) !== 'Available' && volumePhase(volume) !== 'Failed') await this.writes.volumePhase(volume, 'Available');
      return;
    }
    const ref = (volume['spec'] as { claimRef?: { uid?: string } }).claimRef ?? {};
    const claim = await this.currentClaim(claimKey, ref.uid);
    if (!claim) return this.release(volume, ref.uid);
    const claimVolume = (claim['spec'] as { volumeName?: string } | undefined)?.volumeName ?? '';
    if (claimVolume === volume.metadata.name) {
      if (volumePhase(volume) !== 'Bound') await this.writes.volumePhase(volume, 'Bound');
      return;
    }
    if (claimVolume !== '' && volume.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === 'yes') {
      // The claim went to another volume while this one was being bound: free this one.
      await this.writes.unbindVolume(volume);
      return;
    }
    // Reserved for a claim that is not bound yet (pre-bound by the user, or a binding in progress).
    if (volumePhase(volume) === 'Pending') await this.writes.volumePhase(volume, 'Available');
  }

  /**
   * The claim the volume's claimRef names, if it still exists (the same uid). The informer may
   * not have seen a new claim yet, so a volume is released only when the server agrees.
   */
  private async currentClaim(key: string, uid: string | undefined): Promise<KubeObject | undefined> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.claims.primary.get(key);
    if (cached && (!uid || cached.metadata.uid === uid)) return cached as KubeObject;
    if (!uid) return undefined;
    try {
      const live = await this.ctx.api.resource(resources.persistentvolumeclaims, namespace).get(name);
      return live.metadata.uid === uid ? live : undefined;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The claim is gone: Released, then reclaimed by policy. */
  private async release(volume: Readonly<KubeObject>, uid: string | undefined): Promise<void> {
    // A reservation by name alone (no uid) waits for its claim to be created.
    if (!uid) {
      if (volumePhase(volume) !== 'Available') await this.writes.volumePhase(volume, 'Available');
      return;
    }
    if (volumePhase(volume) === 'Failed') return;
    // A volume deleted while Bound is Released too: that is what lets pv-protection lift its finalizer.
    const released = volumePhase(volume) === 'Released' ? volume : await this.writes.volumePhase(volume, 'Released');
    // Being deleted already: its deletion is its reclaim.
    if (released.metadata.deletionTimestamp) return;
    const policy = reclaimPolicy(released);
    if (policy === 'Retain') return;
    const provisioner = released.metadata.annotations?.[ANN_PROVISIONED_BY];
    // Provisioned volumes are deleted by their provisioner, which watches for Released ones.
    if (policy === 'Delete' && provisioner) return;
    const message =
      policy === 'Delete'
        ? `error getting deleter volume plugin for volume "${released.metadata.name}": no deletable volume plugin matched`
        : `no volume plugin matched name: ${policy}`;
    void this.events.record(released, 'Warning', policy === 'Delete' ? 'VolumeFailedDelete' : 'VolumeFailedRecycle', message);
    await this.writes.volumePhase(released, 'Failed', message);
  }
}

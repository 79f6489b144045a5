// The built-in local-path provisioner (rancher.io/local-path, as k3s ships it): for a claim the
// binder marked for it, a hostPath volume `<node's local-path dir>/pvc-<uid>_<namespace>_<name>`
// pinned to one node: the node the scheduler picked for the claim's first pod
// (WaitForFirstConsumer), or for an Immediate class the node with the fewest such volumes. The
// directory lives on the node, which this controller cannot touch: the agent there publishes
// where its directory is (the drover.io/local-path-dir annotation of its Node), creates a
// volume's directory when it first mounts it, and removes it when the volume is deleted, then
// lifts the volume's drover.io/local-path-directory finalizer (src/agent/storage/).
// When a claim of reclaim policy Delete goes, this controller deletes its Released volume.
import type { KubeObject } from '../../api/meta.js';
import { accessModes, claimClass, reclaimPolicy, volumeMode, volumePhase } from '../../api/volumes/claims.js';
import {
  ANN_LOCAL_PATH_NODE,
  ANN_NODE_LOCAL_PATH_DIR,
  LABEL_LOCAL_PATH_NODE,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  HOSTNAME_LABEL,
  LOCAL_PATH_CLEANUP_FINALIZER,
  LOCAL_PATH_PROVISIONER,
} from '../../api/volumes/names.js';
import { isConflict, isNotFound, resources, type EventRecorder, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { QueueShape, ShapeGroup } from '../shape/workload-controller.js';
import { claimReference } from './binding.js';
import { storageQueue } from './storage-queue.js';
import type { Node } from '../../api/core/index.js';
import { isNodeReady } from '../../api/core/node-conditions.js';

/** A node that has not published its directory yet (an agent still starting) is asked again this often. */
const RETRY_MS = 5000;
const SUPPORTED_MODES = new Set(['ReadWriteOnce', 'ReadWriteOncePod']);

/** The name of the volume provisioned for a claim, as Kubernetes' provisioners name them. */
export function provisionedVolumeName(claim: Readonly<KubeObject>): string {
  return `pvc-${claim.metadata.uid ?? ''}`;
}

/** rancher's folder name: the volume, then the claim's namespace and name. */
export function localPathDirectory(baseDir: string, claim: Readonly<KubeObject>): string {
  return `${baseDir.replace(/\/+$/, '')}/${provisionedVolumeName(claim)}_${claim.metadata.namespace ?? ''}_${claim.metadata.name ?? ''}`;
}

export class LocalPathProvisioner extends ShapeGroup {
  /** Two queues: claims to provision, volumes to reclaim. */
  private readonly claims: QueueShape<KubeObject>;
  private readonly volumes: QueueShape<KubeObject>;
  private readonly classes: Informer<KubeObject>;
  private readonly nodes: Informer<KubeObject>;
  private readonly events: EventRecorder;
  /** The ProvisioningFailed message last recorded per claim (by uid): a retry that fails alike says nothing new. */
  private readonly lastFailure = new Map<string, string>();

  constructor(private readonly ctx: ControllerContext) {
    super('local-path-provisioner');
    this.events = ctx.recorder(LOCAL_PATH_PROVISIONER);
    this.claims = this.add(
      storageQueue(ctx, `${this.name} claims`, resources.persistentvolumeclaims, {
        reconcile: (key) => this.provision(key),
        forget: (claim) => this.lastFailure.delete(claim.metadata.uid ?? ''),
      }),
    );
    this.volumes = this.add(storageQueue(ctx, `${this.name} volumes`, resources.persistentvolumes, { reconcile: (key) => this.reclaim(key) }));
    this.classes = ctx.factory.informerFor(resources.storageclasses);
    this.nodes = ctx.factory.informerFor(resources.nodes);
  }

  private async provision(key: string): Promise<ReconcileResult | void> {
    const claim = this.claims.primary.get(key);
    if (!claim || claim.metadata.deletionTimestamp || claim.metadata.annotations?.[ANN_STORAGE_PROVISIONER] !== LOCAL_PATH_PROVISIONER) return;
    if ((claim['spec'] as { volumeName?: string } | undefined)?.volumeName) return;
    if (this.volumes.primary.get(provisionedVolumeName(claim))) return;
    const storageClass = this.classes.get(claimClass(claim));
    if (!storageClass || storageClass['provisioner'] !== LOCAL_PATH_PROVISIONER) return;
    const fail = (why: string) => this.recordFailure(claim, `failed to provision volume with StorageClass "${storageClass.metadata.name}": ${why}`);
    if (volumeMode(claim) !== 'Filesystem') return fail('Only support Filesystem volume mode');
    if (accessModes(claim).some((mode) => !SUPPORTED_MODES.has(mode))) return fail('NodePath only supports ReadWriteOnce and ReadWriteOncePod access modes');
    const lateBinding = storageClass['volumeBindingMode'] === 'WaitForFirstConsumer';
    const nodeName = lateBinding ? claim.metadata.annotations?.[ANN_SELECTED_NODE] : this.leastUsedNode();
    if (!nodeName) {
      if (!lateBinding) fail('no Ready node publishes a local-path directory');
      return lateBinding ? undefined : { requeueAfterMs: RETRY_MS };
    }
    const node = this.nodes.get(nodeName);
    const baseDir = node?.metadata.annotations?.[ANN_NODE_LOCAL_PATH_DIR];
    if (!node || !baseDir) {
      fail(`node "${nodeName}" does not publish a local-path directory (annotation ${ANN_NODE_LOCAL_PATH_DIR})`);
      return { requeueAfterMs: RETRY_MS };
    }
    this.lastFailure.delete(claim.metadata.uid ?? '');
    void this.events.record(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    const volume = this.volumeFor(claim, storageClass, node, baseDir);
    try {
      await this.ctx.api.resource(resources.persistentvolumes).create(volume);
    } catch (error) {
      // Made by an earlier attempt whose answer was lost: the binder binds it.
      if ((error as { code?: number }).code !== 409) throw error;
    }
    void this.events.record(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${volume.metadata.name}`);
  }

  /** A ProvisioningFailed warning, recorded once per claim until its message changes (no spam on every retry). */
  private recordFailure(claim: Readonly<KubeObject>, message: string): void {
    const uid = claim.metadata.uid ?? '';
    if (this.lastFailure.get(uid) === message) return;
    this.lastFailure.set(uid, message);
    void this.events.record(claim, 'Warning', 'ProvisioningFailed', message);
  }

  private volumeFor(claim: Readonly<KubeObject>, storageClass: Readonly<KubeObject>, node: Readonly<KubeObject>, baseDir: string): KubeObject {
    const nodeName = node.metadata.name ?? '';
    const hostname = node.metadata.labels?.[HOSTNAME_LABEL] ?? nodeName;
    const requests = (claim['spec'] as { resources?: { requests?: Record<string, string> } }).resources?.requests ?? {};
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: provisionedVolumeName(claim),
        labels: { [LABEL_LOCAL_PATH_NODE]: nodeName },
        annotations: { [ANN_PROVISIONED_BY]: LOCAL_PATH_PROVISIONER, [ANN_LOCAL_PATH_NODE]: nodeName },
        finalizers: [LOCAL_PATH_CLEANUP_FINALIZER],
      },
      spec: {
        capacity: { storage: requests['storage'] ?? '0' },
        accessModes: accessModes(claim),
        persistentVolumeReclaimPolicy: storageClass['reclaimPolicy'] ?? 'Delete',
        storageClassName: storageClass.metadata.name,
        volumeMode: 'Filesystem',
        claimRef: claimReference(claim),
        hostPath: { path: localPathDirectory(baseDir, claim), type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME_LABEL, operator: 'In', values: [hostname] }] }] } },
      },
    };
  }

  /** For Immediate classes: the Ready, schedulable node with a directory and the fewest local-path volumes. */
  private leastUsedNode(): string | undefined {
    const counts = new Map<string, number>();
    for (const volume of this.volumes.primary.list()) {
      const node = volume.metadata.annotations?.[ANN_LOCAL_PATH_NODE];
      if (node) counts.set(node, (counts.get(node) ?? 0) + 1);
    }
    let best: string | undefined;
    for (const node of this.nodes.list()) {
      const name = node.metadata.name ?? '';
      if (!node.metadata.annotations?.[ANN_NODE_LOCAL_PATH_DIR] || !isNodeReady(node as Node) || (node as Node).spec?.unschedulable) continue;
      if (best === undefined || (counts.get(name) ?? 0) < (counts.get(best) ?? 0) || ((counts.get(name) ?? 0) === (counts.get(best) ?? 0) && name < best))
        best = name;
    }
    return best;
  }

  /** A Released volume of ours with policy Delete is deleted; its agent then removes the directory. */
  private async reclaim(key: string): Promise<ReconcileResult | void> {
    const volume = this.volumes.primary.get(key);
    if (!volume || volume.metadata.deletionTimestamp || volume.metadata.annotations?.[ANN_PROVISIONED_BY] !== LOCAL_PATH_PROVISIONER) return;
    if (volumePhase(volume) !== 'Released' || reclaimPolicy(volume) !== 'Delete') return;
    try {
      await this.ctx.api.resource(resources.persistentvolumes).delete(key, { preconditions: { uid: volume.metadata.uid ?? '' } });
      void this.events.record(
        volume,
        'Normal',
        'VolumeDelete',
        `Deleting volume ${key}: its directory is removed by the agent of node ${volume.metadata.annotations?.[ANN_LOCAL_PATH_NODE] ?? ''}`,
      );
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) return;
      throw error;
    }
  }
}

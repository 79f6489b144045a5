// The node's half of the local-path provisioner: removes the directory of a deleted local-path
// volume of this node, then lifts the volume's drover.io/local-path-directory finalizer so the
// API server can let it go. The agent watches only the volumes labelled with its node (the node
// authorizer lets it see no others), and removes only directories inside its own local-path
// directory: a volume pointing elsewhere is let go with its data left in place, and said so.
// It acts only once pv-protection has let the volume go (it is no longer Bound: Kubernetes'
// promise that a bound volume's data survives `kubectl delete pv`), and removes the data only of
// a volume local-path provisioned whose reclaim policy is Delete; of any other (Retain, or a
// volume switched to Retain to keep its data) it lifts the finalizer and leaves the data, as
// rancher's local-path provisioner does.
import { rm } from 'node:fs/promises';
import type { KubeObject } from '../../api/meta.js';
import { reclaimPolicy, volumePhase } from '../../api/volumes/claims.js';
import {
  ANN_PROVISIONED_BY,
  LABEL_LOCAL_PATH_NODE,
  LOCAL_PATH_CLEANUP_FINALIZER,
  LOCAL_PATH_PROVISIONER,
  PV_PROTECTION_FINALIZER,
} from '../../api/volumes/names.js';
import {
  Informer,
  isConflict,
  isNotFound,
  objectKey,
  resources,
  runController,
  WorkQueue,
  type ApiClient,
  type Logger,
  type ReconcileResult,
  type RunningController,
} from '../../client/index.js';
import { isInside } from './local-path-dir.js';

/** Deleted, released by pv-protection (so no longer Bound), and still holding our finalizer. */
function awaitsCleanup(volume: Readonly<KubeObject>): boolean {
  const finalizers = volume.metadata.finalizers ?? [];
  return (
    Boolean(volume.metadata.deletionTimestamp) &&
    finalizers.includes(LOCAL_PATH_CLEANUP_FINALIZER) &&
    !finalizers.includes(PV_PROTECTION_FINALIZER) &&
    volumePhase(volume) !== 'Bound'
  );
}

/** Only a volume local-path made, whose policy is Delete, has its data removed. */
function dataIsReclaimed(volume: Readonly<KubeObject>): boolean {
  return volume.metadata.annotations?.[ANN_PROVISIONED_BY] === LOCAL_PATH_PROVISIONER && reclaimPolicy(volume) === 'Delete';
}

export class LocalPathCleaner {
  private readonly volumes: Informer<KubeObject>;
  private readonly queue = new WorkQueue<string>();
  private running: RunningController | undefined;

  constructor(
    private readonly api: ApiClient,
    nodeName: string,
    private readonly dir: string,
    private readonly logger: Logger,
  ) {
    this.volumes = new Informer(api, resources.persistentvolumes, { labelSelector: `${LABEL_LOCAL_PATH_NODE}=${nodeName}`, logger });
    const changed = (volume: Readonly<KubeObject>) => awaitsCleanup(volume) && this.queue.add(objectKey(volume));
    this.volumes.addEventHandler({ onAdd: changed, onUpdate: (_old, volume) => changed(volume) });
  }

  start(): void {
    this.volumes.start();
    this.running = runController({ name: 'local-path cleanup', queue: this.queue, logger: this.logger, reconcile: (name) => this.cleanUp(name) });
  }

  async stop(): Promise<void> {
    await this.running?.stop();
    await this.volumes.stop();
  }

  private async cleanUp(name: string): Promise<ReconcileResult | void> {
    const volume = this.volumes.get(name);
    if (!volume || !awaitsCleanup(volume)) return;
    const path = (volume['spec'] as { hostPath?: { path?: string } } | undefined)?.hostPath?.path ?? '';
    if (!dataIsReclaimed(volume)) {
      this.logger.info(`volume ${name} is deleted with reclaim policy ${reclaimPolicy(volume)}: its directory ${path} is kept`);
    } else if (isInside(this.dir, path)) {
      await rm(path, { recursive: true, force: true });
      this.logger.info(`removed the directory ${path} of deleted volume ${name}`);
    } else {
      this.logger.warn(`volume ${name}: ${path || 'its path'} is not inside this node's local-path directory ${this.dir}; its data is left in place`);
    }
    const next = structuredClone(volume) as KubeObject;
    next.metadata.finalizers = (volume.metadata.finalizers ?? []).filter((f) => f !== LOCAL_PATH_CLEANUP_FINALIZER);
    try {
      await this.api.resource(resources.persistentvolumes).update(next);
    } catch (error) {
      if (isNotFound(error)) return;
      if (isConflict(error)) return { requeueAfterMs: 500 };
      throw error;
    }
  }
}

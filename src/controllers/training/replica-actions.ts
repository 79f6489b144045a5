// The training-job controller's writes to pods and services, carried out (shape/pass.ts) under
// expectations per (job, replica type), as Kubeflow's: creations and deletions a pass made are
// awaited through the informers before the next pass counts that type's objects again.
import type { KubeObject } from '../../api/meta.js';
import { isAlreadyExists, isNotFound, resources, type ApiClient, type EventRecorder, type Expectations } from '../../client/index.js';
import { carryOut, type Changes, type Outcome, type Writes } from '../shape/pass.js';
import type { FrameworkController } from './framework.js';
import { newReplicaPod, newReplicaService } from './replica-objects.js';
import type { RestartLedger } from './restart-ledger.js';
import { LABEL_REPLICA_TYPE, type ReplicaSpec, type TrainingJob } from './types.js';
import type { Pod } from '../../api/core/index.js';

export type Kind = 'pods' | 'services';

export function expectationKey(jobUid: string, type: string, kind: Kind): string {
  return `${jobUid}/${type.toLowerCase()}/${kind}`;
}

/** The expectation key an observed pod or service counts towards (undefined: not a replica). */
export function observedKey(object: Readonly<KubeObject>, jobUid: string, kind: Kind): string | undefined {
  const type = object.metadata.labels?.[LABEL_REPLICA_TYPE];
  return type === undefined ? undefined : expectationKey(jobUid, type, kind);
}

/** One replica of a type: a pod or service to create. */
export interface ReplicaItem {
  type: string;
  index: number;
}

export class ReplicaActions {
  constructor(
    private readonly api: ApiClient,
    private readonly recorder: EventRecorder,
    private readonly expectations: Expectations,
    private readonly ledger: RestartLedger,
  ) {}

  /** Deletes and creates the job's pods or services (shape/pass.ts), under expectations per replica type. */
  carryOut(
    fc: FrameworkController,
    job: Readonly<TrainingJob>,
    kind: Kind,
    changes: Changes<ReplicaItem, KubeObject>,
  ): Promise<Outcome<ReplicaItem, KubeObject, KubeObject>> {
    const create = (item: ReplicaItem) => (kind === 'pods' ? this.createPod(fc, job, item) : this.createService(fc, job, item));
    return carryOut(changes, this.writes(job, kind, create));
  }

  /** Deletes pods or services (all of one pass in one call: the expectations are replaced per type). */
  async delete(job: Readonly<TrainingJob>, kind: Kind, objects: readonly Readonly<KubeObject>[]): Promise<unknown[]> {
    const createsNothing = () => Promise.resolve(undefined);
    return (await carryOut({ creations: [], deletions: objects }, this.writes(job, kind, createsNothing))).errors;
  }

  private writes(
    job: Readonly<TrainingJob>,
    kind: Kind,
    create: (item: ReplicaItem) => Promise<KubeObject | undefined>,
  ): Writes<ReplicaItem, KubeObject, KubeObject> {
    const uid = job.metadata.uid!;
    return {
      expectations: this.expectations,
      key: { creation: ({ type }) => expectationKey(uid, type, kind), deletion: (object) => observedKey(object, uid, kind) },
      creations: 'all',
      create,
      delete: (object) => this.deleteOne(job, kind, object),
    };
  }

  private async createPod(fc: FrameworkController, job: Readonly<TrainingJob>, { type, index }: ReplicaItem): Promise<Pod | undefined> {
    const specs = (job.spec[fc.framework.replicaSpecsField] ?? {}) as Record<string, ReplicaSpec>;
    const { pod, overwrotePolicy } = newReplicaPod(fc, job, type, index, specs[type] ?? {});
    if (overwrotePolicy !== undefined) {
      void this.recorder.record(
        job,
        'Warning',
        'SetPodTemplateRestartPolicy',
        `Restart policy in pod template (${overwrotePolicy}) will be overwritten by restart policy in replica spec (${pod.spec.restartPolicy})`,
      );
    }
    const created = await this.createOne(job, 'pods', pod);
    if (created) this.ledger.created(created.metadata.uid ?? '');
    return created;
  }

  private createService(fc: FrameworkController, job: Readonly<TrainingJob>, { type, index }: ReplicaItem): Promise<KubeObject | undefined> {
    return this.createOne(job, 'services', newReplicaService(fc, job, type, index));
  }

  /** Undefined when an object of that name is still there (the old one is still going; the next pass sees it). */
  private async createOne<O extends KubeObject>(job: Readonly<TrainingJob>, kind: Kind, object: O): Promise<O | undefined> {
    const what = kind === 'pods' ? 'Pod' : 'Service';
    try {
      const created = await this.api.resource<O>(kind === 'pods' ? resources.pods : resources.services, job.metadata.namespace).create(object);
      void this.recorder.record(job, 'Normal', `SuccessfulCreate${what}`, `Created ${what.toLowerCase()}: ${object.metadata.name}`);
      return created;
    } catch (error) {
      if (isAlreadyExists(error)) return undefined;
      void this.recorder.record(job, 'Warning', `FailedCreate${what}`, `Error creating: ${(error as Error).message}`);
      throw error;
    }
  }

  private async deleteOne(job: Readonly<TrainingJob>, kind: Kind, object: Readonly<KubeObject>): Promise<void> {
    const what = kind === 'pods' ? 'Pod' : 'Service';
    try {
      await this.api
        .resource(kind === 'pods' ? resources.pods : resources.services, job.metadata.namespace)
        .delete(object.metadata.name!, { preconditions: { uid: object.metadata.uid! } });
      void this.recorder.record(job, 'Normal', `SuccessfulDelete${what}`, `Deleted ${what.toLowerCase()}: ${object.metadata.name}`);
    } catch (error) {
      if (!isNotFound(error)) void this.recorder.record(job, 'Warning', `FailedDelete${what}`, `Error deleting: ${(error as Error).message}`);
      throw error;
    }
  }
}

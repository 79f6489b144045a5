// The training-job controller's writes to pods and services, each under expectations per
// (job, replica type), as Kubeflow's: creations and deletions a pass made are awaited through
// the informers before the next pass counts that type's objects again.
import type { KubeObject } from '../../api/meta.js';
import { isAlreadyExists, isNotFound, objectKey, resources, type ApiClient, type EventRecorder, type Expectations } from '../../client/index.js';
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

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

export class ReplicaActions {
  constructor(
    private readonly api: ApiClient,
    private readonly recorder: EventRecorder,
    private readonly expectations: Expectations,
    private readonly ledger: RestartLedger,
  ) {}

  async createPods(fc: FrameworkController, job: Readonly<TrainingJob>, items: ReadonlyArray<{ type: string; index: number }>): Promise<unknown[]> {
    const specs = (job.spec[fc.framework.replicaSpecsField] ?? {}) as Record<string, ReplicaSpec>;
    const client = this.api.resource<Pod>(resources.pods, job.metadata.namespace);
    for (const [type, list] of groupBy(items, (i) => i.type)) this.expectations.expectCreations(expectationKey(job.metadata.uid!, type, 'pods'), list.length);
    const outcomes = await Promise.allSettled(
      items.map(async ({ type, index }) => {
        const { pod, overwrotePolicy } = newReplicaPod(fc, job, type, index, specs[type] ?? {});
        if (overwrotePolicy !== undefined) {
          void this.recorder.record(
            job,
            'Warning',
            'SetPodTemplateRestartPolicy',
            `Restart policy in pod template (${overwrotePolicy}) will be overwritten by restart policy in replica spec (${pod.spec.restartPolicy})`,
          );
        }
        try {
          const created = await client.create(pod);
          this.ledger.created(created.metadata.uid ?? '');
          void this.recorder.record(job, 'Normal', 'SuccessfulCreatePod', `Created pod: ${pod.metadata.name}`);
        } catch (error) {
          this.expectations.creationObserved(expectationKey(job.metadata.uid!, type, 'pods'));
          if (isAlreadyExists(error)) return; // the old one is still going; the next pass sees it
          void this.recorder.record(job, 'Warning', 'FailedCreatePod', `Error creating: ${(error as Error).message}`);
          throw error;
        }
      }),
    );
    return outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
  }

  async createServices(fc: FrameworkController, job: Readonly<TrainingJob>, items: ReadonlyArray<{ type: string; index: number }>): Promise<unknown[]> {
    const client = this.api.resource(resources.services, job.metadata.namespace);
    for (const [type, list] of groupBy(items, (i) => i.type))
      this.expectations.expectCreations(expectationKey(job.metadata.uid!, type, 'services'), list.length);
    const outcomes = await Promise.allSettled(
      items.map(async ({ type, index }) => {
        const service = newReplicaService(fc, job, type, index);
        try {
          await client.create(service);
          void this.recorder.record(job, 'Normal', 'SuccessfulCreateService', `Created service: ${service.metadata.name}`);
        } catch (error) {
          this.expectations.creationObserved(expectationKey(job.metadata.uid!, type, 'services'));
          if (isAlreadyExists(error)) return;
          void this.recorder.record(job, 'Warning', 'FailedCreateService', `Error creating: ${(error as Error).message}`);
          throw error;
        }
      }),
    );
    return outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
  }

  /** Deletes pods or services (all of one pass in one call: the expectations are replaced per type). */
  async delete(job: Readonly<TrainingJob>, kind: Kind, objects: readonly Readonly<KubeObject>[]): Promise<unknown[]> {
    const client = this.api.resource(kind === 'pods' ? resources.pods : resources.services, job.metadata.namespace);
    const byKey = groupBy(objects, (o) => observedKey(o, job.metadata.uid!, kind) ?? '');
    for (const [key, list] of byKey)
      if (key)
        this.expectations.expectDeletions(
          key,
          list.map((o) => objectKey(o)),
        );
    const what = kind === 'pods' ? 'Pod' : 'Service';
    const outcomes = await Promise.allSettled(
      objects.map(async (object) => {
        try {
          await client.delete(object.metadata.name!, { preconditions: { uid: object.metadata.uid! } });
          void this.recorder.record(job, 'Normal', `SuccessfulDelete${what}`, `Deleted ${what.toLowerCase()}: ${object.metadata.name}`);
        } catch (error) {
          const key = observedKey(object, job.metadata.uid!, kind);
          if (key) this.expectations.deletionObserved(key, objectKey(object));
          if (isNotFound(error)) return;
          void this.recorder.record(job, 'Warning', `FailedDelete${what}`, `Error deleting: ${(error as Error).message}`);
          throw error;
        }
      }),
    );
    return outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
  }
}

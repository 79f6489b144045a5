// The claim and volume queues every volume controller here runs (the binder, the local-path
// provisioner, pvc/pv-protection), set up alike: two workers each, and a deletion enqueues
// nothing, since a deleted claim or volume has nothing left to reconcile (a controller that
// must act on one going, the binder releasing a volume, adds its own handler).
import type { KubeObject } from '../../api/meta.js';
import type { ResourceRef } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { QueueShape, type QueueShapeSpec } from '../shape/workload-controller.js';

export type StorageWork = Pick<QueueShapeSpec<KubeObject>, 'reconcile' | 'forget' | 'predicates'>;

export function storageQueue(ctx: ControllerContext, name: string, resource: ResourceRef, work: StorageWork): QueueShape<KubeObject> {
  return new QueueShape<KubeObject>(ctx, { name, resource, workers: 2, ...work, predicates: { delete: () => false, ...work.predicates } });
}

// Carries out a DaemonSet's plan (shape/pass.ts): creates daemon pods (in slow-start batches)
// and deletes pods under the expectations that stop the next pass from counting a lagging
// cache, recording SuccessfulCreate / SuccessfulDelete events as Kubernetes does.
import { objectKey, type Expectations } from '../../client/index.js';
import { carryOut as carryOutChanges } from '../shape/pass.js';
import type { PodControl } from '../replicaset/pod-control.js';
import { newDaemonPod } from './daemon-pod.js';
import type { PodDeletion } from './manage.js';
import type { DaemonSet } from './types.js';

export interface PodActionsDeps {
  podControl: PodControl;
  expectations: Expectations;
}

export async function carryOut(
  deps: PodActionsDeps,
  ds: Readonly<DaemonSet>,
  createOn: readonly string[],
  deletions: readonly PodDeletion[],
  hash: string,
): Promise<void> {
  const forced = new Set(deletions.filter((d) => d.force).map((d) => d.pod));
  const { errors } = await carryOutChanges(
    { creations: createOn, deletions: deletions.map((d) => d.pod) },
    {
      expectations: deps.expectations,
      key: ds.metadata.uid!,
      create: (nodeName) => deps.podControl.create(ds, newDaemonPod(ds, nodeName, hash)),
      delete: (pod) => deps.podControl.delete(ds, pod, { force: forced.has(pod) }),
    },
  );
  if (errors.length > 0) {
    const first = errors[0] instanceof Error ? errors[0].message : String(errors[0]);
    throw new Error(`daemon set ${objectKey(ds)}: ${errors.length} pod operation(s) failed; first: ${first}`, { cause: errors[0] });
  }
}

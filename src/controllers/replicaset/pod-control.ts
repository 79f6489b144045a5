// Creating and deleting a controller's pods through the API, with the events Kubernetes writes
// (SuccessfulCreate, FailedCreate, SuccessfulDelete, FailedDelete): the ReplicaSet's and the
// DaemonSet's (Kubernetes' RealPodControl).
import type { KubeObject } from '../../api/meta.js';
import { isNotFound, resources, type ApiClient, type EventRecorder } from '../../client/index.js';
import { newControllerRef } from '../../api/owner-references.js';
import type { ReplicaSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

/** The pod a ReplicaSet creates: its template, named `<rs>-<5 random chars>` by the server. */
export function podFromTemplate(rs: Readonly<ReplicaSet>, extraAnnotations?: Readonly<Record<string, string>>): Pod {
  const template = rs.spec.template ?? {};
  const metadata: Pod['metadata'] = {
    generateName: `${rs.metadata.name}-`,
    namespace: rs.metadata.namespace ?? 'default',
    labels: { ...template.metadata?.labels },
    ownerReferences: [newControllerRef(rs)],
  };
  const annotations = { ...template.metadata?.annotations, ...extraAnnotations };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (template.metadata?.finalizers?.length) metadata.finalizers = [...template.metadata.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec ?? {}) as Pod['spec'] };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class PodControl {
  constructor(
    private readonly api: ApiClient,
    private readonly events: EventRecorder,
  ) {}

  async create(owner: Readonly<KubeObject>, pod: Pod): Promise<Pod> {
    try {
      const created = await this.api.resource<Pod>(resources.pods, pod.metadata.namespace).create(pod);
      void this.events.record(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
      return created;
    } catch (error) {
      void this.events.record(owner, 'Warning', 'FailedCreate', `Error creating: ${messageOf(error)}`);
      throw error;
    }
  }

  /** Deletes the pod (only this incarnation of it); a pod already gone throws NotFound without an event. */
  async delete(owner: Readonly<KubeObject>, pod: Readonly<Pod>, options: { force?: boolean } = {}): Promise<void> {
    const name = pod.metadata.name ?? '';
    try {
      // Forced (grace period 0): for a pod whose node is gone, where no agent will confirm a graceful deletion.
      const grace = options.force ? { gracePeriodSeconds: 0 } : {};
      await this.api.resource(resources.pods, pod.metadata.namespace).delete(name, { preconditions: { uid: pod.metadata.uid ?? '' }, ...grace });
      void this.events.record(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
    } catch (error) {
      if (!isNotFound(error)) void this.events.record(owner, 'Warning', 'FailedDelete', `Error deleting: ${messageOf(error)}`);
      throw error;
    }
  }
}

// Kubernetes' ephemeral volume controller: each `ephemeral` volume of a pod gets its claim,
// `<pod>-<volume>`, made from the volume's claim template and owned by the pod, so the garbage
// collector deletes it with the pod. The claim then goes the way of any other (scheduler, binder,
// provisioner, agent).
import type { KubeObject } from '../../api/meta.js';
import { newControllerRef } from '../../api/owner-references.js';
import { ephemeralClaimName, isOwnedByPod } from '../../api/volumes/claims.js';
import { isAlreadyExists, isInvalid, resources, type EventRecorder, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { WorkloadController } from '../shape/workload-controller.js';
import type { Pod, Volume } from '../../api/core/index.js';

type ClaimTemplate = NonNullable<NonNullable<Volume['ephemeral']>['volumeClaimTemplate']>;

function ephemeralVolumes(pod: Readonly<KubeObject>): Array<{ name: string; template: ClaimTemplate }> {
  const volumes = (pod as Pod).spec?.volumes ?? [];
  return volumes.flatMap((v) => (v.ephemeral?.volumeClaimTemplate ? [{ name: String(v.name), template: v.ephemeral.volumeClaimTemplate }] : []));
}

/** Only pods with ephemeral volumes are this controller's business. */
const needsClaims = (pod: Readonly<KubeObject>) => ephemeralVolumes(pod).length > 0;

export class EphemeralVolumeController extends WorkloadController<KubeObject> {
  private readonly claims: Informer<KubeObject>;
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext) {
    super(ctx, {
      name: 'ephemeral-volume-controller',
      resource: resources.pods,
      workers: 2,
      predicates: { add: needsClaims, update: (_old, pod) => needsClaims(pod), delete: () => false },
    });
    this.events = ctx.recorder(this.name);
    // A claim deleted under a pod that still needs it is made again.
    this.claims = this.watches(resources.persistentvolumeclaims, {
      onDelete: (claim) => {
        for (const ref of claim.metadata.ownerReferences ?? []) if (ref.kind === 'Pod') this.queue.add(`${claim.metadata.namespace ?? ''}/${ref.name}`);
      },
    });
  }

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const pod = this.primary.get(key);
    if (!pod || pod.metadata.deletionTimestamp) return;
    for (const { name, template } of ephemeralVolumes(pod)) {
      const claimName = ephemeralClaimName(pod.metadata.name ?? '', name);
      const existing = this.claims.get(`${pod.metadata.namespace ?? ''}/${claimName}`);
      if (existing) {
        if (!isOwnedByPod(existing, pod)) {
          void this.events.record(
            pod,
            'Warning',
            'FailedBinding',
            `PVC ${pod.metadata.namespace}/${claimName} was not created for pod ${key} (pod is not owner)`,
          );
        }
        continue;
      }
      const meta = template.metadata ?? {};
      const claim: KubeObject = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: claimName,
          namespace: pod.metadata.namespace,
          ...(meta.labels ? { labels: meta.labels } : {}),
          ...(meta.annotations ? { annotations: meta.annotations } : {}),
          ownerReferences: [newControllerRef(pod, { apiVersion: 'v1', kind: 'Pod' })],
        },
        spec: structuredClone(template.spec ?? {}),
      };
      try {
        await this.ctx.api.resource(resources.persistentvolumeclaims, pod.metadata.namespace).create(claim);
      } catch (error) {
        // A template the API refuses stays refused until the pod changes: said once, not retried.
        if (isInvalid(error)) {
          void this.events.record(pod, 'Warning', 'FailedCreate', `creating PVC ${claimName} failed: ${(error as Error).message}`);
          continue;
        }
        // Made meanwhile (the informer will show whose it is); anything else is retried.
        if (!isAlreadyExists(error)) throw error;
      }
    }
  }
}

// The pod of one ordinal (Kubernetes' newVersionedStatefulSetPod): the revision's template,
// named `<set>-<ordinal>`, with its identity (hostname = name, subdomain = serviceName, so the
// cluster DNS answers <pod>.<service>.<namespace>.svc for a headless Service), the labels that
// find it by name, index and revision, and one volume per claim template.
import type { OwnerReference } from '../../api/meta.js';
import { newControllerRef } from '../../api/owner-references.js';
import { claimName } from './claims.js';
import { podName } from './ordinals.js';
import { POD_INDEX_LABEL, POD_NAME_LABEL, REVISION_LABEL, type StatefulSet } from './types.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

export function controllerRef(set: Readonly<StatefulSet>): OwnerReference {
  return newControllerRef(set, { apiVersion: 'apps/v1', kind: 'StatefulSet' });
}

export function newStatefulPod(set: Readonly<StatefulSet>, template: Readonly<PodTemplateSpec> | undefined, ordinal: number, revisionName: string): Pod {
  const name = podName(set.metadata.name!, ordinal);
  const spec = structuredClone(template?.spec ?? {}) as NonNullable<Pod['spec']> & { volumes?: Array<Record<string, unknown>> };
  spec['hostname'] = name;
  if (set.spec.serviceName) spec['subdomain'] = set.spec.serviceName;
  const claims = set.spec.volumeClaimTemplates ?? [];
  if (claims.length > 0) {
    const claimed = new Set(claims.map((c) => c.metadata?.name ?? ''));
    // A template volume of the same name is replaced by the claim, as Kubernetes does.
    spec.volumes = [
      ...(spec.volumes ?? []).filter((v) => !claimed.has(String(v['name']))),
      ...claims.map((c) => ({ name: c.metadata?.name ?? '', persistentVolumeClaim: { claimName: claimName(c, set, ordinal) } })),
    ];
  }
  const metadata: Pod['metadata'] = {
    name,
    namespace: set.metadata.namespace ?? 'default',
    labels: { ...template?.metadata?.labels, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [REVISION_LABEL]: revisionName },
    ownerReferences: [controllerRef(set)],
  };
  if (template?.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  if (template?.metadata?.finalizers?.length) metadata.finalizers = [...template.metadata.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

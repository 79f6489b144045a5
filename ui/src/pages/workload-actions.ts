// The writes the Workloads page makes, the way kubectl makes them: `kubectl scale` (the scale
// subresource), `kubectl rollout restart` (a template annotation) and `kubectl rollout undo`
// (the previous revision's template written back into the Deployment).
import { patch } from '../api/client';
import { objectPath } from '../api/resources';
import type { KubeObject } from '../api/types';

const REVISION = 'deployment.kubernetes.io/revision';

export function scale(collection: string, namespace: string, name: string, replicas: number): Promise<unknown> {
  if (!Number.isInteger(replicas) || replicas < 0) return Promise.reject(new Error(`replicas must be a whole number ≥ 0, not ${replicas}`));
  return patch(`${objectPath(collection, namespace, name)}/scale`, { spec: { replicas } });
}

export function restart(collection: string, namespace: string, name: string): Promise<unknown> {
  const annotations = { 'kubectl.kubernetes.io/restartedAt': new Date().toISOString() };
  return patch(objectPath(collection, namespace, name), { spec: { template: { metadata: { annotations } } } }, 'strategic');
}

/** Back to the newest ReplicaSet revision older than the Deployment's current one. */
export function rollBack(deployment: KubeObject, replicaSets: readonly KubeObject[]): Promise<unknown> {
  const { namespace = '', name, uid } = deployment.metadata;
  const current = Number(deployment.metadata.annotations?.[REVISION] ?? 0);
  const owned = replicaSets
    .filter((rs) => rs.metadata.namespace === namespace && rs.metadata.ownerReferences?.some((o) => o.uid === uid))
    .map((rs) => ({ rs, revision: Number(rs.metadata.annotations?.[REVISION] ?? 0) }))
    .filter(({ revision }) => revision > 0 && revision < current)
    .sort((a, b) => b.revision - a.revision);
  const previous = owned[0];
  if (!previous) return Promise.reject(new Error(`deployment ${name} has no earlier revision to roll back to`));
  const template = structuredClone(previous.rs.spec.template) as { metadata?: { labels?: Record<string, string> } };
  delete template.metadata?.labels?.['pod-template-hash'];
  return patch(
    `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}`,
    [
      { op: 'test', path: '/metadata/uid', value: uid },
      { op: 'replace', path: '/spec/template', value: template },
    ],
    'json',
  );
}

// Builders of Deployments and their ReplicaSets for the Deployment controller's unit tests
// (src/controllers/deployment/): a Deployment `web` (uid d-1) and sets it controls.
import type { ReplicaSet } from '../../../src/controllers/replicaset/types.js';
import type { Deployment, IntOrPercent } from '../../../src/controllers/deployment/types.js';
import type { PodTemplateSpec } from '../../../src/api/core/index.js';

/** The pod template of `web` with this image. */
export function webTemplate(image: string): PodTemplateSpec {
  return { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image }] } };
}

/** `web` with `replicas` under RollingUpdate (maxSurge, maxUnavailable), its template's image busybox:2; `extra` replaces spec fields. */
export function webDeployment(
  replicas: number,
  surge: IntOrPercent = '25%',
  unavailable: IntOrPercent = '25%',
  extra: Partial<Deployment['spec']> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'd-1' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: webTemplate('busybox:2'),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
      ...extra,
    },
  };
}

/** A set of `web` created at minute `minute` of 2026 (the order of age), with `available` of its replicas available. */
export function webReplicaSet(
  name: string,
  replicas: number,
  minute: number,
  options: { available?: number; annotations?: Record<string, string>; image?: string } = {},
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: `2026-01-01T00:0${minute}:00Z`,
      annotations: { ...options.annotations },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-1', controller: true }],
    },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: webTemplate(options.image ?? 'busybox:1') },
    status: { replicas, availableReplicas: options.available ?? replicas },
  };
}

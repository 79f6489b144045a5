import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimName, newClaim } from './claims.js';
import { ordinalOf, isMemberOf } from './ordinals.js';
import { newStatefulPod } from './stateful-pod.js';
import type { StatefulSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

const set: StatefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'prod', uid: 'u1' },
  spec: {
    serviceName: 'db-headless',
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' }, annotations: { note: 'x' } },
      spec: {
        containers: [{ name: 'main', image: 'busybox' }],
        volumes: [
          { name: 'data', emptyDir: {} },
          { name: 'scratch', emptyDir: {} },
        ],
      },
    },
    volumeClaimTemplates: [
      { metadata: { name: 'data', labels: { tier: 'disk' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    ],
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
  },
};

describe('a stateful pod and its claims', () => {
  it('is named by its ordinal, with identity, labels and the claims as volumes', () => {
    const pod = newStatefulPod(set, set.spec.template, 2, 'db-abc');
    assert.equal(pod.metadata.name, 'db-2');
    assert.equal(pod.metadata.namespace, 'prod');
    assert.deepEqual(pod.metadata.labels, {
      app: 'db',
      'statefulset.kubernetes.io/pod-name': 'db-2',
      'apps.kubernetes.io/pod-index': '2',
      'controller-revision-hash': 'db-abc',
    });
    assert.deepEqual(pod.metadata.annotations, { note: 'x' });
    assert.deepEqual(pod.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u1', controller: true, blockOwnerDeletion: true },
    ]);
    assert.equal(pod.spec?.['hostname'], 'db-2');
    assert.equal(pod.spec?.['subdomain'], 'db-headless');
    // The claim replaces the template's volume of the same name.
    assert.deepEqual(pod.spec?.['volumes'], [
      { name: 'scratch', emptyDir: {} },
      { name: 'data', persistentVolumeClaim: { claimName: 'data-db-2' } },
    ]);
  });

  it("claims are <template>-<set>-<ordinal>, labelled with the set's selector, owned by the set only when whenDeleted is Delete", () => {
    const template = set.spec.volumeClaimTemplates![0]!;
    assert.equal(claimName(template, set, 0), 'data-db-0');
    const claim = newClaim(template, set, 0);
    assert.deepEqual(claim.metadata, {
      name: 'data-db-0',
      namespace: 'prod',
      labels: { tier: 'disk', app: 'db' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u1' }],
    });
    assert.deepEqual(claim['spec'], template.spec);
    const retained = newClaim(template, { ...set, spec: { ...set.spec, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain' } } }, 0);
    assert.equal(retained.metadata.ownerReferences, undefined);
  });

  it('members are named <set>-<ordinal>', () => {
    const named = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [] } });
    assert.deepEqual(ordinalOf(named('db-web-12')), { parent: 'db-web', ordinal: 12 });
    assert.equal(ordinalOf(named('db-x')), undefined);
    assert.ok(isMemberOf(set, named('db-0')));
    assert.ok(!isMemberOf(set, named('dbx-0')));
    assert.ok(!isMemberOf(set, named('db-abcde')));
  });
});

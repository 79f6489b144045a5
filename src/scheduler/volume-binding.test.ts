import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import { makeNode, makePod, snapshotOf, verdictOf } from '../../test/support/scheduler/builders.js';
import { SKIP } from './status.js';
import { REASON_MISSING_VOLUME, REASON_NO_VOLUME_TO_BIND, REASON_VOLUME_NODE_CONFLICT, volumeBinding, type VolumeLookup } from './volume-binding.js';

const snapshot = snapshotOf([makeNode({ name: 'a' }), makeNode({ name: 'b' })]);
const pinned = (node: string) => ({
  required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] },
});

function claim(name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...(annotations ? { annotations } : {}) },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  };
}
function volume(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
    status: { phase: 'Available' },
  };
}
const classes = new Map<string, KubeObject>([
  [
    'late',
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'late' },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
  ],
  [
    'late-static',
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'late-static' },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
  ],
  [
    'now',
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'now' },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode: 'Immediate',
    },
  ],
]);

function lookupOf(claims: KubeObject[], volumes: KubeObject[]): VolumeLookup {
  return {
    claim: (_ns, name) => claims.find((c) => c.metadata.name === name),
    volume: (name) => volumes.find((v) => v.metadata.name === name),
    storageClass: (name) => classes.get(name),
    volumes: () => volumes,
  };
}

function podUsing(...claimNames: string[]): KubeObject {
  return makePod({ name: 'p', spec: { volumes: claimNames.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })) } });
}

describe('VolumeBinding', () => {
  const noAnnotation = async () => assert.fail('no claim should be annotated');

  it("a claim bound to a pinned volume admits only that volume's node; a missing volume admits none", () => {
    const plugin = volumeBinding(
      lookupOf([claim('data', { volumeName: 'pv-a' }), claim('lost', { volumeName: 'gone' })], [volume('pv-a', { nodeAffinity: pinned('a') })]),
      noAnnotation,
    );
    assert.equal(verdictOf(plugin, podUsing('data'), 'a', snapshot), 'ok');
    assert.equal(verdictOf(plugin, podUsing('data'), 'b', snapshot), REASON_VOLUME_NODE_CONFLICT);
    assert.equal(verdictOf(plugin, podUsing('lost'), 'a', snapshot), REASON_MISSING_VOLUME);
  });

  it('refuses the pod outright for a missing, deleting or unbound Immediate claim', () => {
    const deleting = { ...claim('going', {}), metadata: { ...claim('going', {}).metadata, deletionTimestamp: '2025-01-01T00:00:00Z' } };
    const plugin = volumeBinding(
      lookupOf([deleting, claim('waiting', { storageClassName: 'now' }), claim('classless', { storageClassName: '' })], []),
      noAnnotation,
    );
    assert.equal(verdictOf(plugin, podUsing('nope'), 'a', snapshot), 'prefilter: persistentvolumeclaim "nope" not found');
    assert.equal(verdictOf(plugin, podUsing('going'), 'a', snapshot), 'prefilter: persistentvolumeclaim "going" is being deleted');
    assert.equal(verdictOf(plugin, podUsing('waiting'), 'a', snapshot), 'prefilter: pod has unbound immediate PersistentVolumeClaims');
    assert.equal(verdictOf(plugin, podUsing('classless'), 'a', snapshot), 'prefilter: pod has unbound immediate PersistentVolumeClaims');
  });

  it('a late-binding claim goes anywhere its class can provision, or where a free volume is; once a node is selected, only there', () => {
    const plugin = volumeBinding(
      lookupOf(
        [
          claim('prov', { storageClassName: 'late' }),
          claim('static', { storageClassName: 'late-static' }),
          claim('chosen', { storageClassName: 'late' }, { 'volume.kubernetes.io/selected-node': 'b' }),
        ],
        [volume('free-on-b', { storageClassName: 'late-static', nodeAffinity: pinned('b') })],
      ),
      noAnnotation,
    );
    assert.equal(verdictOf(plugin, podUsing('prov'), 'a', snapshot), 'ok');
    assert.equal(verdictOf(plugin, podUsing('static'), 'a', snapshot), REASON_NO_VOLUME_TO_BIND);
    assert.equal(verdictOf(plugin, podUsing('static'), 'b', snapshot), 'ok');
    assert.equal(verdictOf(plugin, podUsing('chosen'), 'a', snapshot), REASON_VOLUME_NODE_CONFLICT);
    assert.equal(verdictOf(plugin, podUsing('chosen'), 'b', snapshot), 'ok');
  });

  it('before binding, annotates the unbound late-binding claims with the node, then leaves binding to the binder', async () => {
    const annotated: string[] = [];
    const plugin = volumeBinding(
      lookupOf(
        [
          claim('prov', { storageClassName: 'late' }),
          claim('bound', { storageClassName: 'late', volumeName: 'pv' }),
          claim('done', { storageClassName: 'late' }, { 'volume.kubernetes.io/selected-node': 'a' }),
        ],
        [],
      ),
      async (c, node) => void annotated.push(`${c.metadata.name}@${node}`),
    );
    assert.equal(await plugin.bind!(podUsing('prov', 'bound', 'done'), 'a'), SKIP);
    assert.deepEqual(annotated, ['prov@a']);
  });
});

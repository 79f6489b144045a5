import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../meta.js';
import { findMatchingVolume } from './claims.js';

const claim = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'dev', uid: 'u1' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '', ...spec },
});
const volume = (name: string, size: string, spec: Record<string, unknown> = {}, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name, ...(extra.metadata ?? {}) },
  spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], hostPath: { path: `/v/${name}` }, ...spec },
  status: { phase: 'Available' },
});
const names = (found: Readonly<KubeObject> | undefined) => found?.metadata.name;
const pinned = (node: string) => ({
  required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] },
});

describe("findMatchingVolume (the binder's choice)", () => {
  test('the smallest Available volume that is big enough', () => {
    const volumes = [volume('big', '10Gi'), volume('small', '500Mi'), volume('fits', '2Gi'), volume('exact', '1Gi')];
    assert.equal(names(findMatchingVolume(claim(), volumes)), 'exact');
    assert.equal(names(findMatchingVolume(claim({ resources: { requests: { storage: '1500Mi' } } }), volumes)), 'fits');
    assert.equal(findMatchingVolume(claim({ resources: { requests: { storage: '20Gi' } } }), volumes), undefined);
  });

  test('class, access modes, volume mode, selector, phase and claimRef must all fit', () => {
    assert.equal(findMatchingVolume(claim({ storageClassName: 'fast' }), [volume('a', '1Gi')]), undefined);
    assert.equal(names(findMatchingVolume(claim({ storageClassName: 'fast' }), [volume('a', '1Gi', { storageClassName: 'fast' })])), 'a');
    assert.equal(findMatchingVolume(claim({ accessModes: ['ReadWriteMany'] }), [volume('a', '1Gi')]), undefined);
    assert.equal(findMatchingVolume(claim({ volumeMode: 'Block' }), [volume('a', '1Gi')]), undefined);
    const labelled = volume('l', '5Gi', {}, { metadata: { name: 'l', labels: { tier: 'gold' } } });
    assert.equal(names(findMatchingVolume(claim({ selector: { matchLabels: { tier: 'gold' } } }), [volume('a', '1Gi'), labelled])), 'l');
    const released = { ...volume('r', '1Gi'), status: { phase: 'Released' } };
    assert.equal(findMatchingVolume(claim(), [released]), undefined);
    assert.equal(findMatchingVolume(claim(), [volume('o', '1Gi', { claimRef: { namespace: 'dev', name: 'other' } })]), undefined);
  });

  test('a volume reserved for the claim wins over a better fit', () => {
    const reserved = volume('mine', '8Gi', { claimRef: { namespace: 'dev', name: 'data' } });
    assert.equal(names(findMatchingVolume(claim(), [volume('exact', '1Gi'), reserved])), 'mine');
    const forOlderClaim = volume('old', '1Gi', { claimRef: { namespace: 'dev', name: 'data', uid: 'u0' } });
    assert.equal(findMatchingVolume(claim(), [forOlderClaim]), undefined);
  });

  test('with a node, only volumes it can reach; late binding without a node matches nothing', () => {
    const volumes = [volume('n1', '1Gi', { nodeAffinity: pinned('n1') }), volume('n2', '2Gi', { nodeAffinity: pinned('n2') })];
    assert.equal(names(findMatchingVolume(claim(), volumes, { node: { name: 'n2', labels: { 'kubernetes.io/hostname': 'n2' } } })), 'n2');
    assert.equal(findMatchingVolume(claim(), volumes, { delayBinding: true }), undefined);
    assert.equal(names(findMatchingVolume(claim(), volumes)), 'n1');
  });
});

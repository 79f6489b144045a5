// The node authorizer's volume rules against a real SQLite store: an agent reads the volume bound
// to a claim its pod uses (Kubernetes' pod → claim → volume edge, from the volume's claimRef), and
// lists, watches and updates only the local-path volumes labelled with its node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findResource } from '../../api/registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import type { RequestAttributes } from '../types.js';
import { createNodeAuthorizer, type NodeAuthorizer } from './node-authorizer.js';
import { nodeRequest, openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { waitFor } from '../../../test/support/wait-for.js';

const pods = findResource('', 'v1', 'pods')!;
const claims = findResource('', 'v1', 'persistentvolumeclaims')!;
const volumes = findResource('', 'v1', 'persistentvolumes')!;

/** A request of `node`'s agent for PersistentVolumes. */
function asNode(node: string, verb: string, extra: Partial<RequestAttributes> = {}): RequestAttributes {
  return nodeRequest(node, verb, 'persistentvolumes', extra);
}

describe('node authorizer: persistent volumes', () => {
  let t: TestStore;
  let authorizer: NodeAuthorizer;

  before(async () => {
    t = await openTestStore(['ns']);
    await t.store.create(keyFor(pods, 'ns', 'user'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user', namespace: 'ns' },
      spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    await t.store.create(keyFor(claims, 'ns', 'data'), {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'ns' },
      spec: { volumeName: 'pv-data' },
    });
    await t.store.create(keyFor(volumes, undefined, 'pv-data'), {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-data' },
      spec: { claimRef: { namespace: 'ns', name: 'data' } },
    });
    // A claim that names a volume bound elsewhere proves nothing: its creator set that field.
    await t.store.create(keyFor(pods, 'ns', 'greedy'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'greedy', namespace: 'ns' },
      spec: { nodeName: 'node-c', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'grab' } }] },
    });
    await t.store.create(keyFor(claims, 'ns', 'grab'), {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'grab', namespace: 'ns' },
      spec: { volumeName: 'pv-data' },
    });
    await t.store.create(keyFor(volumes, undefined, 'pv-local-b'), {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-local-b', labels: { 'drover.io/local-path-node': 'node-b' } },
      spec: {},
    });
    authorizer = createNodeAuthorizer(t.store);
    await authorizer.start();
  });
  after(async () => {
    authorizer.stop();
    await t.close();
  });

  it('reads the volume of a claim its pod uses, not others', () => {
    assert.equal(authorizer.authorize(asNode('node-a', 'get', { name: 'pv-data' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-b', 'get', { name: 'pv-data' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-a', 'get', { name: 'pv-local-b' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-a', 'update', { name: 'pv-data' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-c', 'get', { name: 'pv-data' })).allowed, false, "a claim's own volumeName grants nothing");
  });

  it('lists, watches, reads and updates the local-path volumes of its own node only', () => {
    const selector = { labelSelector: 'drover.io/local-path-node=node-b' };
    assert.equal(authorizer.authorize(asNode('node-b', 'watch', selector)).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-b', 'list', selector)).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-a', 'watch', selector)).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-b', 'list')).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-b', 'get', { name: 'pv-local-b' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-b', 'update', { name: 'pv-local-b' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-b', 'delete', { name: 'pv-local-b' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-b', 'update', { name: 'pv-local-b', subresource: 'status' })).allowed, false);
  });

  it('follows the binding when the volume is bound to another claim', async () => {
    await t.store.update(keyFor(volumes, undefined, 'pv-data'), {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-data' },
      spec: { claimRef: { namespace: 'ns', name: 'grab' } },
    });
    await waitFor(
      'node-c allowed to get pv-data once its claimRef names ns/grab',
      () => authorizer.authorize(asNode('node-c', 'get', { name: 'pv-data' })).allowed,
      5000,
    );
    assert.equal(authorizer.authorize(asNode('node-a', 'get', { name: 'pv-data' })).allowed, false);
  });
});

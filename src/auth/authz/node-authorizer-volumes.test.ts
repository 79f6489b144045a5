// The node authorizer's volume rules against a real SQLite store: an agent reads the volume bound
// to a claim its pod uses (Kubernetes' pod → claim → volume edge, from the volume's claimRef), and
// lists, watches and updates only the local-path volumes labelled with its node.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findResource } from '../../api/registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import { openSqliteStore, type SqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { nodeSubject } from '../components.js';
import type { RequestAttributes } from '../types.js';
import { createNodeAuthorizer, type NodeAuthorizer } from './node-authorizer.js';
import { waitFor } from '../../../test/support/wait-for.js';

const pods = findResource('', 'v1', 'pods')!;
const claims = findResource('', 'v1', 'persistentvolumeclaims')!;
const volumes = findResource('', 'v1', 'persistentvolumes')!;

function asNode(node: string, verb: string, extra: Partial<RequestAttributes> = {}): RequestAttributes {
  const subject = nodeSubject(node);
  return {
    user: { username: subject.commonName, groups: [...subject.organizations!, 'system:authenticated'] },
    verb,
    resourceRequest: true,
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'persistentvolumes',
    subresource: '',
    namespace: '',
    name: '',
    path: '',
    ...extra,
  };
}

describe('node authorizer: persistent volumes', () => {
  let dir: string;
  let store: SqliteStore;
  let authorizer: NodeAuthorizer;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-node-authz-pv-'));
    store = await openSqliteStore({ path: join(dir, 'state.db') });
    await store.create(keyFor(pods, 'ns', 'user'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user', namespace: 'ns' },
      spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    await store.create(keyFor(claims, 'ns', 'data'), {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'ns' },
      spec: { volumeName: 'pv-data' },
    });
    await store.create(keyFor(volumes, undefined, 'pv-data'), {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-data' },
      spec: { claimRef: { namespace: 'ns', name: 'data' } },
    });
    // A claim that names a volume bound elsewhere proves nothing: its creator set that field.
    await store.create(keyFor(pods, 'ns', 'greedy'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'greedy', namespace: 'ns' },
      spec: { nodeName: 'node-c', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'grab' } }] },
    });
    await store.create(keyFor(claims, 'ns', 'grab'), {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'grab', namespace: 'ns' },
      spec: { volumeName: 'pv-data' },
    });
    await store.create(keyFor(volumes, undefined, 'pv-local-b'), {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-local-b', labels: { 'drover.io/local-path-node': 'node-b' } },
      spec: {},
    });
    authorizer = createNodeAuthorizer(store);
    await authorizer.start();
  });
  after(async () => {
    authorizer.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
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
    await store.update(keyFor(volumes, undefined, 'pv-data'), {
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

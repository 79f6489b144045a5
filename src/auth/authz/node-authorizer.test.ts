// The node authorizer against a real SQLite store: what an agent may reach follows the pods bound
// to its node, and nothing of another node's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import type { RequestAttributes } from '../types.js';
import { createNodeAuthorizer, type NodeAuthorizer } from './node-authorizer.js';
import { nodeRequest, openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { waitFor } from '../../../test/support/wait-for.js';

const pods = findResource('', 'v1', 'pods')!;

function pod(name: string, node: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', labels },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }], ...spec },
  };
}

/** A request of `node`'s agent in namespace ns. */
function asNode(node: string, verb: string, resource: string, extra: Partial<RequestAttributes> = {}): RequestAttributes {
  return nodeRequest(node, verb, resource, { namespace: 'ns', ...extra });
}

describe('node authorizer', () => {
  let t: TestStore;
  let authorizer: NodeAuthorizer;

  before(async () => {
    t = await openTestStore(['ns']);
    const env = { secretKeyRef: { name: 'db-password', key: 'p' } };
    await t.store.create(
      keyFor(pods, 'ns', 'a1'),
      pod(
        'a1',
        'node-a',
        {
          volumes: [{ name: 'cfg', configMap: { name: 'a-config' } }],
          containers: [{ name: 'c', image: 'i', env: [{ name: 'P', valueFrom: env }] }],
        },
        { 'training.kubeflow.org/job-name': 'train' },
      ),
    );
    await t.store.create(
      keyFor(pods, 'ns', 'b1'),
      pod('b1', 'node-b', { volumes: [{ name: 's', secret: { secretName: 'b-secret' } }] }, { 'training.kubeflow.org/job-name': 'train' }),
    );
    await t.store.create(keyFor(pods, 'ns', 'b2'), pod('b2', 'node-b'));
    authorizer = createNodeAuthorizer(t.store);
    await authorizer.start();
  });
  after(async () => {
    authorizer.stop();
    await t.close();
  });

  it('lets an agent read the Secrets and ConfigMaps its own pods use, and no others', () => {
    assert.equal(authorizer.authorize(asNode('node-a', 'get', 'secrets', { name: 'db-password' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-a', 'get', 'configmaps', { name: 'a-config' })).allowed, true);
    const other = authorizer.authorize(asNode('node-a', 'get', 'secrets', { name: 'b-secret' }));
    assert.equal(other.allowed, false);
    assert.match(other.reason, /node 'node-a' has no relationship/);
    assert.equal(authorizer.authorize(asNode('node-a', 'list', 'secrets')).allowed, false);
  });

  it('lets an agent list and watch pods only with its own spec.nodeName selector', () => {
    assert.equal(authorizer.authorize(asNode('node-a', 'watch', 'pods', { namespace: '', fieldSelector: 'spec.nodeName=node-a' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-a', 'list', 'pods', { namespace: '', fieldSelector: 'spec.nodeName=node-b' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-a', 'list', 'pods', { namespace: '' })).allowed, false);
  });

  it("lets an agent read its pods and its job's other replicas, and write only its pods' status", () => {
    assert.equal(authorizer.authorize(asNode('node-a', 'get', 'pods', { name: 'a1' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-a', 'get', 'pods', { name: 'b1' })).allowed, true, 'b1 is a replica of the same job');
    assert.equal(authorizer.authorize(asNode('node-a', 'get', 'pods', { name: 'b2' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-a', 'update', 'pods', { name: 'a1', subresource: 'status' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-a', 'update', 'pods', { name: 'b2', subresource: 'status' })).allowed, false);
    assert.equal(authorizer.authorize(asNode('node-a', 'delete', 'pods', { name: 'b2' })).allowed, false);
  });

  it('lets an agent write its own Node and Lease only', () => {
    assert.equal(authorizer.authorize(asNode('node-a', 'update', 'nodes', { namespace: '', name: 'node-a', subresource: 'status' })).allowed, true);
    assert.equal(authorizer.authorize(asNode('node-a', 'patch', 'nodes', { namespace: '', name: 'node-b' })).allowed, false);
    assert.equal(
      authorizer.authorize(asNode('node-a', 'update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'node-a' })).allowed,
      true,
    );
    assert.equal(
      authorizer.authorize(asNode('node-a', 'update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'node-b' })).allowed,
      false,
    );
  });

  it('follows the pods: a pod moved or deleted takes its reach with it', async () => {
    await t.store.delete(keyFor(pods, 'ns', 'a1'));
    await waitFor(
      'node-a refused the secret of its deleted pod',
      () => !authorizer.authorize(asNode('node-a', 'get', 'secrets', { name: 'db-password' })).allowed,
      2_000,
    );
  });

  it('has no opinion on users that are not nodes', () => {
    const decision = authorizer.authorize({
      ...asNode('node-a', 'get', 'secrets', { name: 'db-password' }),
      user: { username: 'alice', groups: ['system:authenticated'] },
    });
    assert.deepEqual(decision, { allowed: false, reason: '' });
  });
});

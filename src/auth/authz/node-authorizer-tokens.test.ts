// The node authorizer's part in projected service-account tokens: an agent may ask for a token of
// the account its pod runs as, and read the kube-root-ca.crt its kube-api-access volume names;
// not for other accounts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { nodeRequest, openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { apiAccessVolume } from '../../apiserver/admission/service-account-admission.js';
import type { RequestAttributes } from '../types.js';
import { createNodeAuthorizer, type NodeAuthorizer } from './node-authorizer.js';

let t: TestStore;
let nodes: NodeAuthorizer;

before(async () => {
  t = await openTestStore(['dev']);
  await t.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'dev' },
    spec: { nodeName: 'n1', serviceAccountName: 'robot', containers: [{ name: 'c', image: 'busybox' }], volumes: [apiAccessVolume('kube-api-access-abcde')] },
  } as never);
  nodes = createNodeAuthorizer(t.store);
  await nodes.start();
});
after(async () => {
  nodes.stop();
  await t.close();
});

function asNode(node: string, verb: string, resource: string, name: string, subresource = ''): RequestAttributes {
  return nodeRequest(node, verb, resource, { namespace: 'dev', name, subresource });
}

test("a node may request its pods' account tokens and read kube-root-ca.crt; not other accounts, not other nodes", () => {
  assert.equal(nodes.authorize(asNode('n1', 'create', 'serviceaccounts', 'robot', 'token')).allowed, true);
  assert.equal(nodes.authorize(asNode('n1', 'get', 'configmaps', 'kube-root-ca.crt')).allowed, true);
  assert.equal(nodes.authorize(asNode('n1', 'create', 'serviceaccounts', 'admin', 'token')).allowed, false);
  assert.equal(nodes.authorize(asNode('n2', 'create', 'serviceaccounts', 'robot', 'token')).allowed, false);
  assert.equal(nodes.authorize(asNode('n2', 'get', 'configmaps', 'kube-root-ca.crt')).allowed, false);
});

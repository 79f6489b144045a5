// pods/binding (what the scheduler calls) and pods/eviction (what kubectl drain calls).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';

const cluster = useCluster();
const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'drover-test/busybox:1' }] } });
const binding = (name: string, node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } });

describe('pods/binding', () => {
  it('binds an unbound pod once and marks it scheduled', async () => {
    assert.equal((await cluster.api('POST', PODS, pod('b1'))).status, 201);
    const bound = await cluster.api('POST', `${PODS}/b1/binding`, binding('b1', 'node-a'));
    assert.equal(bound.status, 201, JSON.stringify(bound.body));
    const after = (await cluster.api('GET', `${PODS}/b1`)).body;
    assert.equal(after.spec.nodeName, 'node-a');
    assert.ok(after.status.conditions.some((c: { type: string; status: string }) => c.type === 'PodScheduled' && c.status === 'True'));
    const again = await cluster.api('POST', `${PODS}/b1/binding`, binding('b1', 'node-b'));
    assert.equal(again.status, 409);
    assert.match(again.body.message, /already assigned to node "node-a"/);
  });

  it('rejects bindings without a target and for missing pods', async () => {
    assert.equal((await cluster.api('POST', PODS, pod('b2'))).status, 201);
    const invalid = await cluster.api('POST', `${PODS}/b2/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b2' }, target: {} });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.details.causes[0].field, 'target.name');
    assert.equal((await cluster.api('POST', `${PODS}/nope/binding`, binding('nope', 'n'))).status, 404);
  });

  it('does not let an ordinary update move a pod to another node', async () => {
    const current = (await cluster.api('GET', `${PODS}/b1`)).body;
    const moved = await cluster.api('PUT', `${PODS}/b1`, { ...current, spec: { ...current.spec, nodeName: 'node-z' } });
    assert.equal(moved.status, 422);
  });
});

describe('pods/eviction', () => {
  it('evicts (deletes) a pod', async () => {
    assert.equal((await cluster.api('POST', PODS, pod('e1'))).status, 201);
    const res = await cluster.api('POST', `${PODS}/e1/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'e1' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal((await cluster.api('GET', `${PODS}/e1`)).status, 404);
  });
});

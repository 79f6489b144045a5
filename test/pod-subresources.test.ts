// pods/binding (what the scheduler calls) and pods/eviction (what kubectl drain calls).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';

const cluster = useCluster();
const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'drover-test/busybox:1' }] } });
const binding = (name: string, node: string) => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

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

  it('holds the binding to the uid and resourceVersion it names', async () => {
    const created = (await cluster.api('POST', PODS, pod('b3'))).body;
    const stranger = await cluster.api('POST', `${PODS}/b3/binding`, { ...binding('b3', 'node-a'), metadata: { name: 'b3', uid: 'not-the-pod' } });
    assert.equal(stranger.status, 409);
    assert.equal(
      stranger.body.message,
      'Operation cannot be fulfilled on pods "b3": StorageError: invalid object, Code: 4, Key: /registry/pods/default/b3, ' +
        `ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-pod, UID in object meta: ${created.metadata.uid}`,
    );
    const labelled = await cluster.api('PATCH', `${PODS}/b3`, { metadata: { labels: { moved: 'on' } } }, 'application/merge-patch+json');
    assert.equal(labelled.status, 200);
    const stale = await cluster.api('POST', `${PODS}/b3/binding`, {
      ...binding('b3', 'node-a'),
      metadata: { name: 'b3', resourceVersion: created.metadata.resourceVersion },
    });
    assert.equal(stale.status, 409);
    assert.match(stale.body.message, /Precondition failed: ResourceVersion in precondition: \d+, ResourceVersion in object meta: \d+/);
    assert.equal((await cluster.api('GET', `${PODS}/b3`)).body.spec.nodeName, undefined);
    const current = { name: 'b3', uid: created.metadata.uid, resourceVersion: labelled.body.metadata.resourceVersion };
    assert.equal((await cluster.api('POST', `${PODS}/b3/binding`, { ...binding('b3', 'node-a'), metadata: current })).status, 201);
  });

  it('binds one of two racing bindings and refuses the other on pods/binding', async () => {
    assert.equal((await cluster.api('POST', PODS, pod('b4'))).status, 201);
    const answers = await Promise.all(['node-a', 'node-b'].map((node) => cluster.api('POST', `${PODS}/b4/binding`, binding('b4', node))));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409], JSON.stringify(answers.map((a) => a.body)));
    const node = (await cluster.api('GET', `${PODS}/b4`)).body.spec.nodeName;
    const loser = answers.find((a) => a.status === 409)!;
    assert.equal(loser.body.message, `Operation cannot be fulfilled on pods/binding "b4": pod b4 is already assigned to node "${node}"`);
    assert.deepEqual(loser.body.details, { name: 'b4', kind: 'pods/binding' });
  });

  it("adds the binding's annotations, records no field manager on the pod, and writes nothing on a dry run", async () => {
    assert.equal((await cluster.api('POST', PODS, pod('b5'))).status, 201);
    const dry = await cluster.api('POST', `${PODS}/b5/binding?dryRun=All`, binding('b5', 'node-a'));
    assert.equal(dry.status, 201);
    assert.equal((await cluster.api('GET', `${PODS}/b5`)).body.spec.nodeName, undefined);
    const annotated = { ...binding('b5', 'node-a'), metadata: { name: 'b5', annotations: { 'example.com/placed-by': 'test' } } };
    assert.equal((await cluster.api('POST', `${PODS}/b5/binding`, annotated)).status, 201);
    const after = (await cluster.api('GET', `${PODS}/b5`)).body;
    assert.equal(after.spec.nodeName, 'node-a');
    assert.equal(after.metadata.annotations['example.com/placed-by'], 'test');
    // Kubernetes binds in storage (BindingREST's GuaranteedUpdate): no manager comes to own the node.
    const owned = JSON.stringify(after.metadata.managedFields);
    assert.ok(!owned.includes('f:nodeName') && !owned.includes('"subresource":"binding"'), owned);
  });

  it('refuses a pod that still has scheduling gates', async () => {
    const gated = pod('b6');
    Object.assign(gated.spec, { schedulingGates: [{ name: 'example.com/wait' }] });
    assert.equal((await cluster.api('POST', PODS, gated)).status, 201);
    const refused = await cluster.api('POST', `${PODS}/b6/binding`, binding('b6', 'node-a'));
    assert.equal(refused.status, 409);
    assert.equal(refused.body.message, 'Operation cannot be fulfilled on pods/binding "b6": pod b6 has non-empty .spec.schedulingGates');
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

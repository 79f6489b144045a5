// Behaviours where Drover answered differently from Kubernetes (the API-fidelity issue), each
// checked as a client sees it: over HTTP as the client libraries send it, or with kubectl.
import { fetchWithTls } from './support/client/raw-request.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';

/** Every namespace has the cluster CA's ConfigMap (kube-root-ca.crt), published by the server. */
const withoutRootCa = (names: string[]) => names.filter((name) => name !== 'kube-root-ca.crt');

const cluster = useCluster({ extraArgs: ['--no-control-plane'] });
const cm = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

describe('API fidelity', () => {
  it('takes a missing apiVersion and kind from the URL on create and update', async () => {
    const created = await cluster.api('POST', cm('default'), { metadata: { name: 'no-kind' }, data: { a: '1' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.kind, 'ConfigMap');
    assert.equal(created.body.apiVersion, 'v1');
    const updated = await cluster.api('PUT', `${cm('default')}/no-kind`, { metadata: { name: 'no-kind' }, data: { a: '2' } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.data.a, '2');
  });

  it('treats an update whose resourceVersion is "0" or empty as unconditional', async () => {
    await cluster.api('POST', cm('default'), { metadata: { name: 'rv' } });
    for (const resourceVersion of ['0', '']) {
      const res = await cluster.api('PUT', `${cm('default')}/rv`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'rv', resourceVersion },
        data: { rv: resourceVersion },
      });
      assert.equal(res.status, 200, `resourceVersion ${JSON.stringify(resourceVersion)}: ${JSON.stringify(res.body)}`);
    }
    const stale = await cluster.api('PUT', `${cm('default')}/rv`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rv', resourceVersion: '1' } });
    assert.equal(stale.status, 409);
  });

  it('lists a namespace that does not exist as empty, and a watch there sees what is created once it does', async () => {
    const list = await cluster.api('GET', cm('not-yet'));
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.items, []);
    const controller = new AbortController();
    const watch = await fetchWithTls(`${cluster.server().url}${cm('not-yet')}?watch=true&timeoutSeconds=20`, cluster.server().tls, {
      signal: controller.signal,
    });
    assert.equal(watch.status, 200);
    const reader = watch.body!.getReader();
    await cluster.api('POST', '/api/v1/namespaces', { metadata: { name: 'not-yet' } });
    await cluster.api('POST', cm('not-yet'), { metadata: { name: 'arrived' } });
    let text = '';
    while (!text.includes('"arrived"')) {
      const { value, done } = await reader.read();
      assert.equal(done, false, 'the watch ended before the object was created');
      text += new TextDecoder().decode(value);
    }
    assert.match(text, /"type":"ADDED"/);
    controller.abort();
  });

  it('pages a list as one snapshot: later pages neither show later objects nor miss later-deleted ones', async () => {
    await cluster.api('POST', '/api/v1/namespaces', { metadata: { name: 'paged' } });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await cluster.api('POST', cm('paged'), { metadata: { name } });
    for (const accept of ['application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io']) {
      const first = await fetchWithTls(`${cluster.server().url}${cm('paged')}?limit=2`, cluster.server().tls, { headers: { Accept: accept } }).then(
        (r) => r.json() as Promise<any>,
      );
      const names = (list: any) =>
        withoutRootCa((list.items ?? list.rows.map((row: any) => ({ metadata: { name: row.cells[0] } }))).map((i: any) => i.metadata.name));
      assert.deepEqual(names(first), ['a', 'b']);
      await cluster.api('POST', cm('paged'), { metadata: { name: `b-late-${accept.length}` } });
      await cluster.api('DELETE', `${cm('paged')}/${accept === 'application/json' ? 'd' : 'c'}`);
      const rest = await fetchWithTls(
        `${cluster.server().url}${cm('paged')}?limit=10&continue=${encodeURIComponent(first.metadata.continue)}`,
        cluster.server().tls,
        { headers: { Accept: accept } },
      ).then((r) => r.json() as Promise<any>);
      assert.equal(rest.metadata.resourceVersion, first.metadata.resourceVersion);
      // The second round's snapshot holds the first round's late object, and the c it deletes after its first page.
      assert.deepEqual(names(rest), accept === 'application/json' ? ['c', 'd', 'e'] : ['b-late-16', 'c', 'e'], accept);
    }
  });

  it('lists with resourceVersionMatch Exact and NotOlderThan as Kubernetes does', async () => {
    await cluster.api('POST', '/api/v1/namespaces', { metadata: { name: 'exact' } });
    const created = await cluster.api('POST', cm('exact'), { metadata: { name: 'one' } });
    const at = Number(created.body.metadata.resourceVersion);
    await cluster.api('POST', cm('exact'), { metadata: { name: 'two' } });
    const exact = await cluster.api('GET', `${cm('exact')}?resourceVersion=${at}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 200);
    assert.equal(exact.body.metadata.resourceVersion, String(at));
    assert.deepEqual(withoutRootCa(exact.body.items.map((i: any) => i.metadata.name)), ['one']);
    const newer = await cluster.api('GET', `${cm('exact')}?resourceVersion=${at}&resourceVersionMatch=NotOlderThan`);
    assert.deepEqual(withoutRootCa(newer.body.items.map((i: any) => i.metadata.name)), ['one', 'two']);
    const future = await cluster.api('GET', `${cm('exact')}?resourceVersion=${at + 100_000}&resourceVersionMatch=NotOlderThan`);
    assert.equal(future.status, 504);
    assert.match(future.body.message, /Too large resource version/);
    assert.equal((await cluster.api('GET', `${cm('exact')}?resourceVersion=0&resourceVersionMatch=Exact`)).status, 400);
    assert.equal((await cluster.api('GET', `${cm('exact')}?resourceVersionMatch=Exact`)).status, 400);
    assert.equal(
      (await cluster.api('GET', `${cm('exact')}?resourceVersion=1&resourceVersionMatch=Exact`)).status,
      200,
      'history reaches back to revision 1 on a new server',
    );
  });

  it('switches a Deployment from RollingUpdate to Recreate with client-side apply (retainKeys in OpenAPI)', async () => {
    const deployment = (strategy: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: strategy}
spec:
  replicas: 0
  selector: {matchLabels: {app: strategy}}
  strategy: ${strategy}
  template:
    metadata: {labels: {app: strategy}}
    spec: {containers: [{name: c, image: drover-test/busybox:1}]}
`;
    await cluster.kubectl(['apply', '-f', '-'], { input: deployment('{type: RollingUpdate, rollingUpdate: {maxSurge: 1}}') });
    await cluster.kubectl(['apply', '-f', '-'], { input: deployment('{type: Recreate}') });
    assert.equal(await cluster.kubectl(['get', 'deploy/strategy', '-o', 'jsonpath={.spec.strategy}']), '{"type":"Recreate"}');
    const openapi = await cluster.api('GET', '/openapi/v2');
    const strategy = openapi.body.definitions['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy;
    assert.equal(strategy['x-kubernetes-patch-strategy'], 'retainKeys', 'as Kubernetes publishes it, for clients that read it');
  });

  it('moves from client-side to server-side apply as Kubernetes does: no conflicts with kubectl-client-side-apply, diff works, the annotation keeps in step', async () => {
    const manifest = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: migrate, labels: {a: b}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: migrate}}
  template:
    metadata: {labels: {app: migrate}}
    spec: {containers: [{name: c, image: drover-test/busybox:1}]}
`;
    await cluster.kubectl(['apply', '-f', '-'], { input: manifest(1) });
    assert.match(await cluster.kubectl(['apply', '--server-side', '-f', '-'], { input: manifest(2) }), /serverside-applied/);
    const diff = await cluster.kubectlRaw(['diff', '--server-side', '-f', '-'], { input: manifest(2) });
    assert.equal(diff.code, 0, diff.stderr);
    await cluster.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: manifest(3) });
    const lastApplied = JSON.parse(
      await cluster.kubectl(['get', 'deploy/migrate', '-o', 'jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}']),
    );
    assert.equal(lastApplied.spec.replicas, 3);
    await cluster.kubectl(['apply', '-f', '-'], { input: manifest(4) });
    assert.equal(await cluster.kubectl(['get', 'deploy/migrate', '-o', 'jsonpath={.spec.replicas}']), '4');
  });

  it('never deletes default, kube-system, kube-public or kube-node-lease, not even with --all', async () => {
    await cluster.kubectl(['create', 'namespace', 'kube-node-lease']).catch(() => '');
    await cluster.kubectl(['create', 'namespace', 'scratch']);
    const result = await cluster.kubectlRaw(['delete', 'namespace', '--all', '--wait=false']);
    assert.match(result.stdout + result.stderr, /namespace "scratch" deleted/);
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      assert.match(result.stderr, new RegExp(`namespaces "${name}" is forbidden`), name);
      const phase = await cluster.kubectl(['get', 'namespace', name, '-o', 'jsonpath={.status.phase}']);
      assert.equal(phase, 'Active', name);
    }
  });
});

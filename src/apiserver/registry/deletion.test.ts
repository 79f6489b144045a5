// Deletion propagation as the API server marks it (no garbage collector runs here): which
// finalizers DELETE leaves, how a second DELETE switches the policy, how bad options are
// refused, and that graceful deletion, dry runs and collections keep working.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { TestServer, callJson } from '../../../test/support/apiserver/in-process-server.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('deletion propagation', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await server.close();
  });

  const call = (method: string, path: string, body?: unknown) => callJson(server.url, method, path, body);

  async function configMap(name: string, finalizers?: string[], labels?: Record<string, string>): Promise<KubeObject> {
    const metadata: Record<string, unknown> = { name };
    if (finalizers) metadata['finalizers'] = finalizers;
    if (labels) metadata['labels'] = labels;
    const created = await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { a: 'b' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as KubeObject;
  }

  async function stored(name: string): Promise<KubeObject | undefined> {
    const got = await call('GET', `${CM}/${name}`);
    return got.status === 404 ? undefined : (got.body as KubeObject);
  }

  it('Orphan adds the orphan finalizer and marks the object', async () => {
    const created = await configMap('orphan-body');
    const res = await call('DELETE', `${CM}/orphan-body`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
    assert.ok(res.status === 200 || res.status === 202, JSON.stringify(res.body));
    assert.deepEqual(res.body.metadata.finalizers, ['orphan']);
    const now = await stored('orphan-body');
    assert.deepEqual(now?.metadata.finalizers, ['orphan']);
    assert.ok(now?.metadata.deletionTimestamp);
    assert.equal(now?.metadata.deletionGracePeriodSeconds, 0);
    assert.equal(now?.metadata.generation, (created.metadata.generation ?? 1) + 1, 'the first mark bumps generation');
  });

  it('Foreground (as a query parameter) adds the foregroundDeletion finalizer', async () => {
    await configMap('fg-query');
    const res = await call('DELETE', `${CM}/fg-query?propagationPolicy=Foreground`);
    assert.ok(res.status < 300, JSON.stringify(res.body));
    assert.deepEqual((await stored('fg-query'))?.metadata.finalizers, ['foregroundDeletion']);
  });

  it('Background, and no policy, delete at once', async () => {
    await configMap('bg');
    await configMap('no-policy');
    assert.equal((await call('DELETE', `${CM}/bg`, { propagationPolicy: 'Background' })).status, 200);
    assert.equal((await call('DELETE', `${CM}/no-policy`)).status, 200);
    assert.equal(await stored('bg'), undefined);
    assert.equal(await stored('no-policy'), undefined);
  });

  it('without a policy, a garbage-collection finalizer already on the object decides', async () => {
    await configMap('pre-orphan', ['orphan']);
    await call('DELETE', `${CM}/pre-orphan`);
    const now = await stored('pre-orphan');
    assert.ok(now?.metadata.deletionTimestamp, 'kept, marked');
    assert.deepEqual(now?.metadata.finalizers, ['orphan']);
  });

  it('orphanDependents (deprecated) maps onto Orphan and Background', async () => {
    await configMap('legacy-true');
    await configMap('legacy-false', ['orphan']);
    await call('DELETE', `${CM}/legacy-true?orphanDependents=true`);
    assert.deepEqual((await stored('legacy-true'))?.metadata.finalizers, ['orphan']);
    // false overrides the orphan finalizer the object carries: nothing holds it any more.
    assert.equal((await call('DELETE', `${CM}/legacy-false`, { orphanDependents: false })).status, 200);
    assert.equal(await stored('legacy-false'), undefined);
  });

  it('a second delete switches the policy, keeping other finalizers', async () => {
    await configMap('switch', ['example.com/hold']);
    await call('DELETE', `${CM}/switch`, { propagationPolicy: 'Orphan' });
    assert.deepEqual((await stored('switch'))?.metadata.finalizers, ['example.com/hold', 'orphan']);
    const firstMark = (await stored('switch'))?.metadata.deletionTimestamp;
    await call('DELETE', `${CM}/switch`, { propagationPolicy: 'Foreground' });
    const foreground = await stored('switch');
    assert.deepEqual(foreground?.metadata.finalizers, ['example.com/hold', 'foregroundDeletion']);
    assert.equal(foreground?.metadata.deletionTimestamp, firstMark, 'the deletion timestamp stays');
    // A repeated delete without a policy changes nothing.
    const rv = foreground?.metadata.resourceVersion;
    await call('DELETE', `${CM}/switch`);
    assert.equal((await stored('switch'))?.metadata.resourceVersion, rv);
    await call('DELETE', `${CM}/switch`, { propagationPolicy: 'Background' });
    assert.deepEqual((await stored('switch'))?.metadata.finalizers, ['example.com/hold']);
  });

  it('an object whose only finalizer was the orphan one goes when switched to Background', async () => {
    await configMap('switch-bg');
    await call('DELETE', `${CM}/switch-bg`, { propagationPolicy: 'Orphan' });
    assert.ok(await stored('switch-bg'));
    assert.equal((await call('DELETE', `${CM}/switch-bg`, { propagationPolicy: 'Background' })).status, 200);
    assert.equal(await stored('switch-bg'), undefined);
  });

  it('refuses bad values with a 422 naming propagationPolicy', async () => {
    await configMap('bad');
    for (const res of [
      await call('DELETE', `${CM}/bad`, { propagationPolicy: 'Sideways' }),
      await call('DELETE', `${CM}/bad?propagationPolicy=sideways`),
      await call('DELETE', `${CM}/bad`, { propagationPolicy: 'Orphan', orphanDependents: true }),
    ]) {
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.kind, 'Status');
      assert.equal(res.body.reason, 'Invalid');
      assert.equal(res.body.details.causes[0].field, 'propagationPolicy');
    }
    const unsupported = await call('DELETE', `${CM}/bad`, { propagationPolicy: 'Sideways' });
    assert.match(unsupported.body.message, /Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan"/);
    assert.ok(await stored('bad'), 'nothing was deleted');
  });

  it('dry run answers with the marked object and changes nothing', async () => {
    await configMap('dry');
    const res = await call('DELETE', `${CM}/dry?dryRun=All`, { propagationPolicy: 'Foreground' });
    assert.ok(res.status < 300, JSON.stringify(res.body));
    assert.deepEqual(res.body.metadata.finalizers, ['foregroundDeletion']);
    assert.ok(res.body.metadata.deletionTimestamp);
    const now = await stored('dry');
    assert.equal(now?.metadata.finalizers, undefined);
    assert.equal(now?.metadata.deletionTimestamp, undefined);
  });

  it('deletecollection applies the policy to every object', async () => {
    await configMap('set-a', undefined, { set: 'gc' });
    await configMap('set-b', undefined, { set: 'gc' });
    const res = await call('DELETE', `${CM}?labelSelector=set%3Dgc`, { propagationPolicy: 'Orphan' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.items.length, 2);
    for (const name of ['set-a', 'set-b']) assert.deepEqual((await stored(name))?.metadata.finalizers, ['orphan']);
  });

  it('a graceful pod deletion keeps its grace period; only a shorter one may change the finalizers', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'graceful' }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'busybox' }] } };
    assert.equal((await call('POST', pods, pod)).status, 201);
    const first = await call('DELETE', `${pods}/graceful`, { propagationPolicy: 'Foreground' });
    assert.equal(first.body.metadata.deletionGracePeriodSeconds, 30);
    assert.deepEqual(first.body.metadata.finalizers, ['foregroundDeletion']);
    // Pending graceful deletion: a policy alone does not change it.
    const second = await call('DELETE', `${pods}/graceful`, { propagationPolicy: 'Orphan' });
    assert.deepEqual(second.body.metadata.finalizers, ['foregroundDeletion']);
    assert.equal(second.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
    // The agent's grace-0 confirmation switches it and, a finalizer remaining, keeps the pod.
    const confirm = await call('DELETE', `${pods}/graceful`, { gracePeriodSeconds: 0, propagationPolicy: 'Orphan' });
    assert.deepEqual(confirm.body.metadata.finalizers, ['orphan']);
    assert.equal(confirm.body.metadata.deletionGracePeriodSeconds, 0);
    const gone = await call('DELETE', `${pods}/graceful`, { gracePeriodSeconds: 0, propagationPolicy: 'Background' });
    assert.equal(gone.status, 200);
    assert.equal((await call('GET', `${pods}/graceful`)).status, 404);
  });

  it('keeps checking preconditions', async () => {
    await configMap('precondition');
    const res = await call('DELETE', `${CM}/precondition`, { propagationPolicy: 'Foreground', preconditions: { uid: 'not-the-uid' } });
    assert.equal(res.status, 409);
    assert.equal((await stored('precondition'))?.metadata.finalizers, undefined);
  });
});

// Namespace finalization through the registry: a deleted namespace stays Terminating while it
// holds objects (a client's update cannot release it), its lifecycle deletes the content, then
// takes `kubernetes` out through namespaces/finalize, and the namespace goes with the last
// finalizer — at once, or when a finalize write releases one of another owner.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestServer, callJson, sendRaw } from '../../test/support/apiserver/in-process-server.js';
import { waitFor } from '../../test/support/wait-for.js';

const NS = '/api/v1/namespaces';

describe('namespace lifecycle', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  const call = (method: string, path: string, body?: unknown) => callJson(server.url, method, path, body);
  async function mergePatch(path: string, patch: unknown): Promise<{ status: number; body: any }> {
    const answer = await sendRaw(server.url, 'PATCH', path, JSON.stringify(patch), { 'Content-Type': 'application/merge-patch+json' });
    return { status: answer.status, body: answer.json ?? answer.text };
  }

  async function createNamespace(name: string, finalizers?: string[]): Promise<void> {
    const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...(finalizers ? { spec: { finalizers } } : {}) };
    const created = await call('POST', NS, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
  }

  async function heldConfigMap(namespace: string, name: string): Promise<void> {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers: ['example.com/hold'] } };
    const created = await call('POST', `${NS}/${namespace}/configmaps`, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
  }

  const gone = (path: string) => async () => (await call('GET', path)).status === 404;

  it('keeps a terminating namespace until its content is gone, whatever an update says', { timeout: 60_000 }, async () => {
    await createNamespace('held');
    await heldConfigMap('held', 'pinned');
    const deleted = await call('DELETE', `${NS}/held`);
    assert.equal(deleted.status, 202, JSON.stringify(deleted.body));
    // The lifecycle marks the held ConfigMap for deletion; its finalizer keeps it.
    await waitFor('the ConfigMap marked for deletion', async () => (await call('GET', `${NS}/held/configmaps/pinned`)).body.metadata?.deletionTimestamp);

    // An update may change labels, not spec.finalizers: the namespace stays, still Terminating.
    const patched = await mergePatch(`${NS}/held`, { metadata: { labels: { touched: 'yes' } }, spec: { finalizers: [] } });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.spec.finalizers, ['kubernetes']);
    assert.equal(patched.body.status.phase, 'Terminating');
    assert.equal((await call('GET', `${NS}/held`)).status, 200);

    const released = await mergePatch(`${NS}/held/configmaps/pinned`, { metadata: { finalizers: null } });
    assert.equal(released.status, 200, JSON.stringify(released.body));
    await waitFor('the namespace to go once empty', gone(`${NS}/held`), 30_000);
  });

  it("releases only its own finalizer; another owner's finalize write lets the namespace go", { timeout: 60_000 }, async () => {
    await createNamespace('shared', ['kubernetes', 'example.com/owner']);
    await heldConfigMap('shared', 'pinned');
    await call('DELETE', `${NS}/shared`);
    const unpinned = await waitFor('the ConfigMap marked for deletion', async () => {
      const cm = (await call('GET', `${NS}/shared/configmaps/pinned`)).body;
      return cm.metadata?.deletionTimestamp ? cm : undefined;
    });
    await mergePatch(`${NS}/shared/configmaps/pinned`, { metadata: { finalizers: null, resourceVersion: unpinned.metadata.resourceVersion } });
    const waiting = await waitFor('the lifecycle to release `kubernetes`', async () => {
      const ns = (await call('GET', `${NS}/shared`)).body;
      return ns.spec?.finalizers?.length === 1 ? ns : undefined;
    });
    assert.deepEqual(waiting.spec.finalizers, ['example.com/owner']);
    assert.equal(waiting.status.phase, 'Terminating');

    const finalized = await call('PUT', `${NS}/shared/finalize`, { ...waiting, spec: { finalizers: [] } });
    assert.equal(finalized.status, 200, JSON.stringify(finalized.body));
    await waitFor('the namespace to go with its last finalizer', gone(`${NS}/shared`), 30_000);
  });

  it('removes a namespace made without the kubernetes finalizer once it is empty', { timeout: 60_000 }, async () => {
    await createNamespace('bare', []);
    await heldConfigMap('bare', 'pinned');
    await call('DELETE', `${NS}/bare`);
    await waitFor('the ConfigMap marked for deletion', async () => (await call('GET', `${NS}/bare/configmaps/pinned`)).body.metadata?.deletionTimestamp);
    await mergePatch(`${NS}/bare/configmaps/pinned`, { metadata: { finalizers: null } });
    await waitFor('the namespace to go once empty', gone(`${NS}/bare`), 30_000);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/meta.js';
import type { ResourceRequest } from '../apiserver/handlers/context.js';
import { readBody, writeJson } from '../apiserver/http-io.js';
import { ApiClient } from './api-client.js';
import { ApiStatusError, isAlreadyExists, isConflict, isGone, isInvalid, isNotFound } from './errors.js';
import { resources } from './resources.js';
import { testPod } from '../../test/support/apiserver/in-process-server.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';
import type { WatchEvent } from './watch-stream.js';
import { waitFor } from '../../test/support/wait-for.js';
import { startSlowLink } from '../../test/support/slow-link.js';

const bindings: unknown[] = [];
const bind = async (ctx: ResourceRequest) => {
  bindings.push({ pod: ctx.path.name, body: JSON.parse((await readBody(ctx.req)).toString()) });
  writeJson(ctx.res, 201, { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 });
};
const bed = useTestServer({ historyWindow: 20, subresources: new Map([['/pods/binding', bind]]) });

describe('ApiClient CRUD', () => {
  it('creates, gets, updates, patches and deletes', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    const created = await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'crud' }, data: { a: '1' } });
    assert.equal(created.metadata.namespace, 'default');
    const got = await configmaps.get('crud');
    assert.deepEqual(got['data'], { a: '1' });
    const updated = await configmaps.update({ ...got, data: { a: '2' } });
    assert.notEqual(updated.metadata.resourceVersion, got.metadata.resourceVersion);
    const merged = await configmaps.patch('crud', 'merge', { data: { b: '3' } });
    assert.deepEqual(merged['data'], { a: '2', b: '3' });
    const jsonPatched = await configmaps.patch('crud', 'json', [{ op: 'remove', path: '/data/a' }]);
    assert.deepEqual(jsonPatched['data'], { b: '3' });
    const applied = await configmaps.patch('crud', 'apply', { metadata: { name: 'crud' }, data: { c: '4' } }, { fieldManager: 'tester', force: true });
    assert.equal((applied['data'] as Record<string, string>)['c'], '4');
    await configmaps.delete('crud');
    await assert.rejects(configmaps.get('crud'), isNotFound);
  });

  it('maps Status bodies to ApiStatusError and its helpers', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    const first = await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'errs' } });
    const dup = await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'errs' } }).catch((e: unknown) => e);
    assert.ok(dup instanceof ApiStatusError && isAlreadyExists(dup) && !isConflict(dup));
    assert.equal(dup.code, 409);
    await configmaps.update({ ...first, data: { x: 'y' } });
    const stale = await configmaps.update({ ...first, data: { x: 'z' } }).catch((e: unknown) => e);
    assert.ok(isConflict(stale), String(stale));
    const missing = await configmaps.get('nope').catch((e: unknown) => e);
    assert.ok(missing instanceof ApiStatusError && missing.reason === 'NotFound' && missing.status.kind === 'Status');
    const bad = await bed.api
      .resource(resources.pods, 'default')
      .create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Bad_Name' }, spec: { containers: [] } })
      .catch((e: unknown) => e);
    assert.ok(isInvalid(bad) && (bad as ApiStatusError).causes.length > 0);
    const precondition = await configmaps.delete('errs', { preconditions: { uid: 'not-the-uid' } }).catch((e: unknown) => e);
    assert.ok(isConflict(precondition), String(precondition));
  });

  it('writes status through the status subresource and fills in apiVersion/kind', async () => {
    const pods = bed.api.resource(resources.pods, 'default');
    const { apiVersion: _a, kind: _k, ...bare } = testPod('status-pod');
    const pod = await pods.create(bare as unknown as KubeObject);
    const updated = await pods.updateStatus({ ...pod, status: { phase: 'Running' } });
    assert.equal((updated['status'] as { phase: string }).phase, 'Running');
    const patched = await pods.patch('status-pod', 'merge', { status: { phase: 'Succeeded' } }, { subresource: 'status' });
    assert.equal((patched['status'] as { phase: string }).phase, 'Succeeded');
  });

  it('reads and writes the scale subresource', async () => {
    const deployments = bed.api.resource(resources.deployments, 'default');
    await deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    });
    const scale = await deployments.getSubresource<{ spec: { replicas: number } }>('web', 'scale');
    assert.equal(scale.spec.replicas, 1);
    await deployments.updateSubresource('web', 'scale', { ...scale, spec: { replicas: 3 } });
    assert.equal(((await deployments.get('web'))['spec'] as { replicas: number }).replicas, 3);
  });

  it('posts to subresources (pods/binding)', async () => {
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { kind: 'Node', name: 'node-1' } };
    const status = await bed.api.resource(resources.pods, 'default').createSubresource<{ status: string }>('bound', 'binding', binding);
    assert.equal(status.status, 'Success');
    assert.deepEqual(bindings, [{ pod: 'bound', body: binding }]);
  });

  it('deletes collections by label', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    for (const name of ['dc-1', 'dc-2', 'keep']) {
      await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { group: name === 'keep' ? 'b' : 'a' } } });
    }
    const deleted = await configmaps.deleteCollection({ labelSelector: { group: 'a' } });
    assert.deepEqual(deleted.items.map((i) => i.metadata.name).sort(), ['dc-1', 'dc-2']);
    assert.deepEqual(
      (await configmaps.list({ labelSelector: 'group' })).items.map((i) => i.metadata.name),
      ['keep'],
    );
  });
});

describe('ApiClient sockets', () => {
  it('answers a Lease request at once while every socket of the pool is busy', async () => {
    // One socket, each request 300 ms slower: twelve lists queue for it, one after the other.
    // A lease renewal queued behind them (a controller's burst) would miss its deadline.
    const link = await startSlowLink(bed.server.url, 300);
    const narrow = new ApiClient({ server: link.url, namespace: 'default', tls: bed.server.adminTls }, { maxSockets: 1, userAgent: 'socket-lanes-test' });
    try {
      const order: string[] = [];
      const bulk = Array.from({ length: 12 }, (_, i) =>
        narrow
          .resource(resources.configmaps, 'default')
          .list()
          .then(() => order.push(`list-${i}`)),
      );
      const lease = narrow
        .resource(resources.leases, 'default')
        .list()
        .then(() => order.push('lease'));
      await Promise.all([...bulk, lease]);
      assert.ok(order.indexOf('lease') < 4, `answered in this order: ${order.join(', ')}`);
    } finally {
      narrow.close();
      await link.close();
    }
  });
});

describe('ApiClient lists', () => {
  it('listAll follows continue tokens', async () => {
    await bed.api.resource(resources.namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paging' } });
    const configmaps = bed.api.resource(resources.configmaps, 'paging');
    await Promise.all(
      Array.from({ length: 23 }, (_, i) => configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(2, '0')}` } })),
    );
    const page = await configmaps.list({ limit: 5 });
    assert.equal(page.items.length, 5);
    assert.ok(page.metadata.continue);
    const all = await configmaps.listAll({ pageSize: 5 });
    assert.equal(all.items.length, 23);
    assert.equal(new Set(all.items.map((i) => i.metadata.name)).size, 23);
    assert.ok(all.metadata.resourceVersion);
    assert.equal(all.metadata.continue, undefined);
  });

  it('requires a namespace for object calls on namespaced kinds', async () => {
    await assert.rejects(async () => bed.api.resource(resources.pods).get('x'), /namespace is required/);
  });
});

describe('ApiClient watch', () => {
  it('delivers ADDED, MODIFIED and DELETED in order, then stops', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    const start = await configmaps.list();
    const seen: string[] = [];
    const watch = configmaps.watch({ resourceVersion: start.metadata.resourceVersion!, labelSelector: 'w=1' }, (event) => {
      if (event.type !== 'BOOKMARK') seen.push(`${event.type}:${(event.object as KubeObject).metadata.name}`);
    });
    await watch.ready;
    const cm = await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', labels: { w: '1' } } });
    await configmaps.update({ ...cm, data: { k: 'v' } });
    await configmaps.delete('watched');
    await waitFor('three events', () => seen.length === 3, 3000);
    assert.deepEqual(seen, ['ADDED:watched', 'MODIFIED:watched', 'DELETED:watched']);
    watch.stop();
    assert.deepEqual(await watch.done, { reason: 'stopped' });
  });

  it('surfaces 410 Expired as an ERROR event', async () => {
    const configmaps = bed.api.resource(resources.configmaps, 'default');
    for (let i = 0; i < 60; i++) await configmaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `churn-${i}` } });
    await bed.server.store.compact();
    const events: WatchEvent[] = [];
    const watch = configmaps.watch({ resourceVersion: '1' }, (event) => events.push(event));
    const end = await watch.done;
    assert.equal(end.reason, 'closed');
    const error = events.find((e) => e.type === 'ERROR');
    assert.ok(error && error.type === 'ERROR' && error.object.code === 410);
    assert.ok(isGone(new ApiStatusError(error.object)));
  });

  it('rejects ready when the server refuses the watch', async () => {
    const watch = bed.api.resource(resources.configmaps, 'default').watch({ labelSelector: 'a in (' }, () => undefined);
    await assert.rejects(watch.ready, (error: unknown) => error instanceof ApiStatusError && error.code === 400);
    assert.equal((await watch.done).reason, 'error');
  });
});

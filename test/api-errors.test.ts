// Bad input gets a Kubernetes Status with the right code and nothing is written; the
// non-resource endpoints answer.
import { fetchWithTls } from './support/client/raw-request.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useCluster } from './support/cluster-fixture.js';
import { startServerProcess } from './support/server-process.js';

const cluster = useCluster();
const CM = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });

async function expectStatus(method: string, path: string, body: unknown, code: number, reason: string, contentType?: string) {
  const res = await cluster.api(method, path, body, contentType);
  assert.equal(res.status, code, JSON.stringify(res.body));
  assert.equal(res.body.kind, 'Status');
  assert.equal(res.body.reason, reason);
  assert.equal(res.body.code, code);
  return res.body;
}

describe('bad input', () => {
  it('answers malformed bodies with 400', async () => {
    await expectStatus('POST', CM, '{"apiVersion": ', 400, 'BadRequest');
    await expectStatus('POST', CM, 'kind: [unclosed', 400, 'BadRequest', 'application/yaml');
    await expectStatus('POST', CM, '[1,2]', 400, 'BadRequest');
    await expectStatus('POST', CM, configMap('x', { apiVersion: 'v2' }), 400, 'BadRequest');
    await expectStatus('POST', CM, { ...configMap('x'), kind: 'Secret' }, 400, 'BadRequest');
    await expectStatus('POST', '/api/v1/namespaces/other/configmaps', { ...configMap('x'), metadata: { name: 'x', namespace: 'default' } }, 400, 'BadRequest');
  });

  it('answers invalid objects with 422 and the field at fault', async () => {
    const bad = await expectStatus('POST', CM, configMap('Not_DNS'), 422, 'Invalid');
    assert.equal(bad.details.causes[0].field, 'metadata.name');
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'neg' },
      spec: {
        replicas: -1,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const status = await expectStatus('POST', '/apis/apps/v1/namespaces/default/deployments', deployment, 422, 'Invalid');
    assert.equal(status.details.causes[0].field, 'spec.replicas');
    const labels = await expectStatus('POST', CM, { ...configMap('l'), metadata: { name: 'l', labels: { 'bad key!': 'v' } } }, 422, 'Invalid');
    assert.match(labels.details.causes[0].field, /metadata.labels/);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'forever' },
      spec: { terminationGracePeriodSeconds: 1e300, containers: [{ name: 'c', image: 'i' }] },
    };
    const int64 = await expectStatus('POST', '/api/v1/namespaces/default/pods', pod, 422, 'Invalid');
    assert.equal(int64.details.causes[0].field, 'spec.terminationGracePeriodSeconds');
    // A field the schema and the kind's own rules both find missing is reported once.
    const unnamed = { ...pod, metadata: { name: 'unnamed' }, spec: { containers: [{ name: 'c', image: 'i', env: [{ value: 'v' }] }] } };
    const once = await expectStatus('POST', '/api/v1/namespaces/default/pods', unnamed, 422, 'Invalid');
    assert.deepEqual(
      once.details.causes.map((c: { field: string }) => c.field),
      ['spec.containers[0].env[0].name'],
    );
    // A null list item is its type's zero value, as Kubernetes decodes it: here a nameless container.
    const nullInit = { ...pod, metadata: { name: 'null-init' }, spec: { initContainers: [null], containers: [{ name: 'c', image: 'i' }] } };
    const zero = await expectStatus('POST', '/api/v1/namespaces/default/pods', nullInit, 422, 'Invalid');
    assert.deepEqual(
      zero.details.causes.map((c: { field: string }) => c.field),
      ['spec.initContainers[0].name', 'spec.initContainers[0].image'],
    );
  });

  it('applies fieldValidation Strict, Warn and Ignore', async () => {
    const strict = await expectStatus('POST', `${CM}?fieldValidation=Strict`, configMap('s', { dta: {} }), 400, 'BadRequest');
    assert.match(strict.message, /unknown field "dta"/);
    const warn = await cluster.api('POST', `${CM}?fieldValidation=Warn`, configMap('w', { dta: {} }));
    assert.equal(warn.status, 201);
    assert.match(String(warn.headers['warning'] ?? ''), /unknown field \\?"dta\\?"/);
    assert.equal(warn.body.dta, undefined);
    const ignore = await cluster.api('POST', `${CM}?fieldValidation=Ignore`, configMap('i', { dta: {} }));
    assert.equal(ignore.status, 201);
    assert.equal(ignore.headers['warning'], undefined);
  });

  it('answers unknown resources, names and namespaces with 404', async () => {
    await expectStatus('GET', '/api/v1/namespaces/default/widgets', undefined, 404, 'NotFound');
    await expectStatus('GET', `${CM}/missing`, undefined, 404, 'NotFound');
    await expectStatus('POST', '/api/v1/namespaces/nowhere/configmaps', configMap('x'), 404, 'NotFound');
    await expectStatus('GET', '/apis/nothing.example.com/v1/things', undefined, 404, 'NotFound');
  });

  it('answers conflicts, bad selectors, big bodies and unknown media types', async () => {
    const created = await cluster.api('POST', CM, configMap('c'));
    assert.equal(created.status, 201);
    await expectStatus('POST', CM, configMap('c'), 409, 'AlreadyExists');
    const stale = { ...created.body, metadata: { ...created.body.metadata, resourceVersion: '1' }, data: { a: 'b' } };
    await expectStatus('PUT', `${CM}/c`, stale, 409, 'Conflict');
    await expectStatus('GET', `${CM}?labelSelector=${encodeURIComponent('a in (b')}`, undefined, 400, 'BadRequest');
    for (const limit of ['99999999999999999999', '1e3', '-1', '0x10']) await expectStatus('GET', `${CM}?limit=${limit}`, undefined, 400, 'BadRequest');
    await expectStatus('GET', `${CM}?watch=1&resourceVersion=99999999999999999999`, undefined, 400, 'BadRequest');
    await expectStatus('DELETE', `${CM}/c`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 1e300 }, 400, 'BadRequest');
    await expectStatus('POST', CM, JSON.stringify(configMap('big', { data: { a: 'x'.repeat(3 * 1024 * 1024) } })), 413, 'RequestEntityTooLarge');
    await expectStatus('POST', CM, 'hello', 415, 'UnsupportedMediaType', 'text/plain');
    // No Content-Type at all (a cross-site "simple" POST cannot send a JSON one): never a write.
    await expectStatus('POST', CM, JSON.stringify(configMap('typeless')), 415, 'UnsupportedMediaType', '');
    await expectStatus('PATCH', `${CM}/c`, '{}', 415, 'UnsupportedMediaType', 'application/json');
    await expectStatus('PATCH', `${CM}/c`, '[{"op":"nope"}]', 400, 'BadRequest', 'application/json-patch+json');
  });

  it('leaves nothing behind after a rejected write', async () => {
    await expectStatus('POST', CM, configMap('half', { data: { ok: 1 } }), 422, 'Invalid');
    await expectStatus('GET', `${CM}/half`, undefined, 404, 'NotFound');
    await cluster.api('POST', CM, configMap('whole', { data: { a: 'b' } }));
    await expectStatus('PATCH', `${CM}/whole`, '{"data":{"a":5}}', 422, 'Invalid', 'application/merge-patch+json');
    assert.equal((await cluster.api('GET', `${CM}/whole`)).body.data.a, 'b');
  });
});

describe('collections and events', () => {
  it('deletes a collection by label selector', async () => {
    for (const [name, team] of [
      ['dc-a', 'x'],
      ['dc-b', 'x'],
      ['dc-c', 'y'],
    ]) {
      assert.equal((await cluster.api('POST', CM, { ...configMap(name!), metadata: { name, labels: { team } } })).status, 201);
    }
    const res = await cluster.api('DELETE', `${CM}?labelSelector=team%3Dx`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['dc-a', 'dc-b']);
    assert.equal((await cluster.api('GET', `${CM}/dc-c`)).status, 200);
    assert.equal((await cluster.api('GET', `${CM}/dc-a`)).status, 404);
  });

  it('selects events by involvedObject fields', async () => {
    const event = (name: string, object: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', namespace: 'default', name: object },
      reason: 'Tested',
      message: `about ${object}`,
      type: 'Normal',
    });
    assert.equal((await cluster.api('POST', '/api/v1/namespaces/default/events', event('e1', 'web-1'))).status, 201);
    assert.equal((await cluster.api('POST', '/api/v1/namespaces/default/events', event('e2', 'web-2'))).status, 201);
    const text = await cluster.kubectl(['get', 'events', '--field-selector', 'involvedObject.name=web-2']);
    assert.match(text, /about web-2/);
    assert.doesNotMatch(text, /about web-1/);
  });
});

describe('watch history', () => {
  it('answers a watch from a compacted revision with a 410 Expired ERROR event', async () => {
    const server = await startServerProcess({ extraArgs: ['--watch-history', '20'] });
    try {
      const url = `${server.url}${CM}`;
      for (let i = 0; i < 100; i++) {
        const res = await fetchWithTls(url, server.tls, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(configMap(`h${i}`)),
        });
        assert.equal(res.status, 201);
      }
      const watch = await fetchWithTls(`${url}?watch=1&resourceVersion=2&timeoutSeconds=5`, server.tls);
      assert.equal(watch.status, 200);
      const event = JSON.parse((await watch.text()).trim().split('\n')[0]!);
      assert.equal(event.type, 'ERROR');
      assert.equal(event.object.code, 410);
      assert.equal(event.object.reason, 'Expired');
    } finally {
      await server.stop();
      await server.cleanup();
    }
  });
});

describe('non-resource endpoints', () => {
  it('serves health, version, discovery, OpenAPI and metrics', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) assert.equal((await cluster.api('GET', path)).status, 200);
    assert.equal((await cluster.api('GET', '/version')).body.major, '1');
    assert.ok((await cluster.api('GET', '/apis')).body.groups.some((g: { name: string }) => g.name === 'apps'));
    const v3 = await cluster.api('GET', '/openapi/v3');
    assert.ok(v3.body.paths['apis/apps/v1']);
    // A subresource nobody serves is a 404 and labels no series: clients cannot grow /metrics without bound.
    assert.equal((await cluster.api('GET', '/api/v1/namespaces/default/configmaps/any/made-up-subresource')).status, 404);
    const metrics = await cluster.api('GET', '/metrics');
    assert.doesNotMatch(metrics.body, /made-up-subresource/);
    // kube-apiserver's labels: the method as its metrics spell it, group, version, scope, component.
    assert.match(
      metrics.body,
      /apiserver_request_total\{verb="POST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="201"\}/,
    );
    assert.match(metrics.body, /drover_store_operation_duration_seconds_bucket/);
  });
});

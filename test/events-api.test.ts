// events.k8s.io/v1 Events: the core/v1 Events under the newer API's names, one object in two
// APIs (as Kubernetes stores them), with the v1 API's stricter rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useCluster } from './support/cluster-fixture.js';

const cluster = useCluster({ extraArgs: ['--no-control-plane'] });
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const CORE = '/api/v1/namespaces/default/events';

const v1Event = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  eventTime: '2026-11-26T03:00:00.000000Z',
  reportingController: 'example.com/operator',
  reportingInstance: 'operator-0',
  action: 'Reconcile',
  reason: 'Synced',
  type: 'Normal',
  note: 'all good',
  regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0' },
  ...extra,
});

describe('events.k8s.io/v1 Events', () => {
  it('a v1 Event is the core Event under its other names, and back', async () => {
    const created = await cluster.api('POST', V1, v1Event('synced'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.apiVersion, 'events.k8s.io/v1');
    const core = (await cluster.api('GET', `${CORE}/synced`)).body;
    assert.equal(core.apiVersion, 'v1');
    assert.equal(core.message, 'all good');
    assert.equal(core.reportingComponent, 'example.com/operator');
    assert.deepEqual(core.involvedObject, { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0' });
    assert.equal(core.metadata.resourceVersion, created.body.metadata.resourceVersion, 'one object, one revision');
    const listed = await cluster.kubectl(['get', 'events.v1.events.k8s.io', 'synced', '-o', 'jsonpath={.regarding.name} {.note}']);
    assert.equal(listed, 'web-0 all good');
    // kubectl's table for either API.
    assert.match(await cluster.kubectl(['get', 'events.events.k8s.io']), /Synced/);
  });

  it('a core Event reads in v1 with regarding, note and the deprecated legacy fields', async () => {
    const core = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'legacy' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' },
      reason: 'Started',
      message: 'Started container',
      source: { component: 'kubelet', host: 'node-a' },
      count: 3,
      firstTimestamp: '2026-11-26T02:00:00Z',
      lastTimestamp: '2026-11-26T02:05:00Z',
      type: 'Normal',
    };
    assert.equal((await cluster.api('POST', CORE, core)).status, 201);
    const v1 = (await cluster.api('GET', `${V1}/legacy`)).body;
    assert.equal(v1.note, 'Started container');
    assert.equal(v1.regarding.name, 'web-1');
    assert.deepEqual(v1.deprecatedSource, { component: 'kubelet', host: 'node-a' });
    assert.equal(v1.deprecatedCount, 3);
    assert.equal(v1.message, undefined);
    // Field selectors in either API's names.
    const byRegarding = (await cluster.api('GET', `${V1}?fieldSelector=regarding.name%3Dweb-1`)).body;
    assert.deepEqual(
      byRegarding.items.map((e: { metadata: { name: string } }) => e.metadata.name),
      ['legacy'],
    );
  });

  it('a watch of v1 Events sees a core Event written', async () => {
    const rv = (await cluster.api('GET', V1)).body.metadata.resourceVersion;
    const writing = cluster.api('POST', CORE, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'seen' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-2' },
      message: 'hello',
    });
    const raw = await cluster.kubectl(['get', '--raw', `${V1}?watch=1&resourceVersion=${rv}&timeoutSeconds=2`]);
    await writing;
    const events = raw
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; object: { apiVersion: string; metadata: { name: string }; note?: string } });
    const seen = events.find((e) => e.object.metadata.name === 'seen');
    assert.ok(seen, raw);
    assert.equal(seen.type, 'ADDED');
    assert.equal(seen.object.apiVersion, 'events.k8s.io/v1');
    assert.equal(seen.object.note, 'hello');
  });

  it('holds v1 Events to the v1 rules, and keeps what was reported', async () => {
    const bad = await cluster.api(
      'POST',
      V1,
      v1Event('bad', { reportingController: undefined, type: 'Odd', series: { count: 1, lastObservedTime: '2026-11-26T03:00:00.000000Z' } }),
    );
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    const fields = bad.body.details.causes.map((c: { field: string }) => c.field).sort();
    assert.deepEqual(fields, ['reportingController', 'series.count', 'type']);
    const noTime = await cluster.api('POST', V1, v1Event('untimed', { eventTime: undefined }));
    assert.equal(noTime.status, 422);
    // A series may grow; what was reported may not change.
    assert.equal((await cluster.api('POST', V1, v1Event('repeat'))).status, 201);
    const grown = await cluster.api(
      'PATCH',
      `${V1}/repeat`,
      { series: { count: 2, lastObservedTime: '2026-11-26T03:01:00.000000Z' } },
      'application/merge-patch+json',
    );
    assert.equal(grown.status, 200, JSON.stringify(grown.body));
    const changed = await cluster.api('PATCH', `${V1}/repeat`, { reason: 'Other' }, 'application/merge-patch+json');
    assert.equal(changed.status, 422);
    assert.equal(changed.body.details.causes[0].field, 'reason');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  newRevision,
  nextRevisionNumber,
  revisionData,
  revisionHash,
  revisionName,
  revisionsToPrune,
  sameData,
  templateOf,
  type ControllerRevision,
} from './revisions.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox:1' }] } };
const revision = (name: string, number: number): ControllerRevision => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name },
  revision: number,
  data: {},
});

describe('controller revisions', () => {
  it('hash the template whatever its key order and unset fields; a collision count changes it', () => {
    const reordered = { spec: { containers: [{ image: 'busybox:1', name: 'main', env: [] }] }, metadata: { labels: { app: 'web' }, creationTimestamp: null } };
    assert.equal(revisionHash(template), revisionHash(reordered));
    assert.match(revisionHash(template), /^[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.notEqual(revisionHash(template), revisionHash(template, 1));
    assert.notEqual(revisionHash(template), revisionHash({ ...template, spec: { containers: [{ name: 'main', image: 'busybox:2' }] } }));
  });

  it('store the patch that restores the template whole, as kubectl rollout undo sends it', () => {
    const data = revisionData(template);
    assert.deepEqual(data, { spec: { template: { ...template, $patch: 'replace' } } });
    const made = newRevision(
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'ns' } },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u1', controller: true },
      template,
      'controller.kubernetes.io/hash',
      'abc',
      3,
    );
    assert.equal(made.metadata.name, 'db-abc');
    assert.deepEqual(made.metadata.labels, { app: 'web', 'controller.kubernetes.io/hash': 'abc' });
    assert.equal(made.revision, 3);
    assert.deepEqual(templateOf(made), template);
    assert.ok(sameData(made, revisionData(JSON.parse(JSON.stringify(template)))));
    assert.equal(revisionName('x'.repeat(300), 'h').length, 225);
  });

  it('number revisions after the highest, and prune the oldest unused beyond the limit', () => {
    const all = [revision('a', 1), revision('b', 2), revision('c', 3), revision('d', 4), revision('e', 5)];
    assert.equal(nextRevisionNumber(all), 6);
    assert.equal(nextRevisionNumber([]), 1);
    // a and e are in use (a pod still runs a; e is current): kept; of the idle b, c, d the two newest stay.
    assert.deepEqual(
      revisionsToPrune(all, 2, new Set(['a', 'e'])).map((r) => r.metadata.name),
      ['b'],
    );
    assert.deepEqual(
      revisionsToPrune(all, 10, new Set()).map((r) => r.metadata.name),
      [],
    );
    assert.deepEqual(
      revisionsToPrune(all, 0, new Set(['e'])).map((r) => r.metadata.name),
      ['a', 'b', 'c', 'd'],
    );
  });
});

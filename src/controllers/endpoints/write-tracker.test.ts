import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { WriteTracker } from './write-tracker.js';

const slice = (name: string, resourceVersion: string): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name, namespace: 'default', resourceVersion },
});

describe('WriteTracker', () => {
  it('holds a service stale until the cache has seen its writes', () => {
    const cache = new Map<string, KubeObject>();
    const tracker = new WriteTracker((_, name) => cache.get(name));
    tracker.wrote('default/web', slice('web-a', '10'));
    tracker.wrote('default/web', slice('web-b', '11'));
    assert.equal(tracker.isStale('default/web'), true);
    assert.equal(tracker.isStale('default/other'), false);
    assert.equal(tracker.observe('default/web', slice('web-a', '9'), false), 'own', 'an older version: still catching up');
    assert.equal(tracker.observe('default/web', slice('web-a', '10'), false), 'own');
    assert.equal(tracker.isStale('default/web'), true);
    assert.equal(tracker.observe('default/web', slice('web-b', '11'), false), 'caught-up');
    assert.equal(tracker.isStale('default/web'), false);
    assert.equal(tracker.observe('default/web', slice('web-b', '12'), false), 'foreign', 'a change by someone else');
  });

  it('does not wait for writes the cache already holds, or deletions it already saw', () => {
    const cache = new Map<string, KubeObject>([['web-a', slice('web-a', '10')]]);
    const tracker = new WriteTracker((_, name) => cache.get(name));
    tracker.wrote('default/web', slice('web-a', '10'));
    tracker.deleted('default/web', slice('web-gone', '3'));
    assert.equal(tracker.isStale('default/web'), false);
  });

  it('tracks deletions, and tells a deletion by someone else from its own', () => {
    const cache = new Map<string, KubeObject>([
      ['web-a', slice('web-a', '10')],
      ['web-b', slice('web-b', '11')],
    ]);
    const tracker = new WriteTracker((_, name) => cache.get(name));
    tracker.deleted('default/web', slice('web-a', '10'));
    tracker.wrote('default/web', slice('web-b', '12'));
    assert.equal(tracker.observe('default/web', slice('web-a', '10'), true), 'own');
    assert.equal(tracker.observe('default/web', slice('web-b', '11'), true), 'caught-up');
  });

  it('gives up on writes never seen after the TTL', () => {
    let now = 0;
    const tracker = new WriteTracker(
      () => undefined,
      1000,
      () => now,
    );
    tracker.wrote('default/web', slice('web-a', '10'));
    assert.equal(tracker.isStale('default/web'), true);
    now = 1001;
    assert.equal(tracker.isStale('default/web'), false);
  });
});

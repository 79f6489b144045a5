import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPodActive, isPodFinished, podsToDelete } from './pod-state.js';
import { isPodAvailable } from '../../api/core/pod-conditions.js';
import type { Pod } from '../../api/core/index.js';

function pod(
  name: string,
  options: {
    node?: string;
    phase?: Pod['status'] extends infer S ? (S extends { phase?: infer P } ? P : never) : never;
    ready?: string;
    created?: string;
    restarts?: number;
  } = {},
): Pod {
  const conditions = options.ready ? [{ type: 'Ready', status: 'True' as const, lastTransitionTime: options.ready }] : [];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, creationTimestamp: options.created ?? '2024-01-01T00:00:00Z' },
    spec: options.node ? { nodeName: options.node, containers: [] } : { containers: [] },
    status: {
      phase: options.phase ?? 'Pending',
      conditions,
      containerStatuses: [{ name: 'c', ready: false, restartCount: options.restarts ?? 0, image: 'i', imageID: '', state: {}, lastState: {} }],
    },
  };
}

describe('pod state', () => {
  it('knows active, finished and available pods', () => {
    assert.ok(isPodActive(pod('a', { phase: 'Running' })));
    assert.ok(!isPodActive(pod('a', { phase: 'Failed' })));
    assert.ok(!isPodActive({ ...pod('a'), metadata: { name: 'a', deletionTimestamp: '2024-01-01T00:00:00Z' } }));
    assert.ok(isPodFinished(pod('a', { phase: 'Failed' })));
    assert.ok(isPodFinished(pod('a', { phase: 'Succeeded' })), 'Succeeded with restartPolicy Always');
    assert.ok(!isPodFinished({ ...pod('a', { phase: 'Succeeded' }), spec: { restartPolicy: 'OnFailure', containers: [] } }));
    const now = Date.parse('2024-01-01T00:00:10Z');
    assert.ok(isPodAvailable(pod('a', { ready: '2024-01-01T00:00:00Z' }), 10, now));
    assert.ok(!isPodAvailable(pod('a', { ready: '2024-01-01T00:00:05Z' }), 10, now));
    assert.ok(!isPodAvailable(pod('a'), 0, now));
  });

  it('gives up unscheduled, pending, not-ready, crowded, recently ready, restarting and new pods first', () => {
    const pods = [
      pod('old-ready', { node: 'n1', phase: 'Running', ready: '2024-01-01T00:00:00Z' }),
      pod('new-ready', { node: 'n2', phase: 'Running', ready: '2024-01-01T00:05:00Z' }),
      pod('not-ready', { node: 'n3', phase: 'Running' }),
      pod('pending', { node: 'n4', phase: 'Pending' }),
      pod('unscheduled'),
    ];
    assert.deepEqual(
      podsToDelete(pods, 4).map((p) => p.metadata.name),
      ['unscheduled', 'pending', 'not-ready', 'new-ready'],
    );
    const crowded = [
      pod('alone', { node: 'n1', phase: 'Running', ready: '2024-01-01T00:00:00Z' }),
      pod('pair-1', { node: 'n2', phase: 'Running', ready: '2024-01-01T00:00:00Z' }),
      pod('pair-2', { node: 'n2', phase: 'Running', ready: '2024-01-01T00:00:00Z' }),
    ];
    assert.notEqual(podsToDelete(crowded, 1)[0]?.metadata.name, 'alone');
    const restarts = [pod('calm', { node: 'n1', phase: 'Running' }), pod('flappy', { node: 'n2', phase: 'Running', restarts: 5 })];
    assert.equal(podsToDelete(restarts, 1)[0]?.metadata.name, 'flappy');
    const ages = [pod('older', { node: 'n1', created: '2024-01-01T00:00:00Z' }), pod('newer', { node: 'n2', created: '2024-01-02T00:00:00Z' })];
    assert.equal(podsToDelete(ages, 1)[0]?.metadata.name, 'newer');
  });
});

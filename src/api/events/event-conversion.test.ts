import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../meta.js';
import { eventCoreToV1, eventV1ToCore } from './event-conversion.js';

describe('events.k8s.io/v1 ⇄ core/v1 Event', () => {
  it('renames the fields that differ and keeps the rest, both ways, without touching its input', () => {
    const v1: KubeObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'default', resourceVersion: '7' },
      eventTime: '2026-11-26T03:00:00.000000Z',
      series: { count: 2, lastObservedTime: '2026-11-26T03:01:00.000000Z' },
      reportingController: 'kubernetes.io/kubelet',
      reportingInstance: 'node-a',
      action: 'Pulling',
      reason: 'Pulling',
      regarding: { kind: 'Pod', name: 'p' },
      related: { kind: 'Node', name: 'node-a' },
      note: 'pulling image',
      type: 'Normal',
      deprecatedSource: { component: 'kubelet' },
      deprecatedFirstTimestamp: '2026-11-26T03:00:00Z',
      deprecatedLastTimestamp: '2026-11-26T03:01:00Z',
      deprecatedCount: 2,
    };
    const before = structuredClone(v1);
    const core = eventV1ToCore(v1);
    assert.deepEqual(v1, before);
    assert.equal(core.apiVersion, 'v1');
    assert.deepEqual(core['involvedObject'], { kind: 'Pod', name: 'p' });
    assert.equal(core['message'], 'pulling image');
    assert.equal(core['reportingComponent'], 'kubernetes.io/kubelet');
    assert.deepEqual(core['source'], { component: 'kubelet' });
    assert.equal(core['count'], 2);
    assert.equal(core['regarding'], undefined);
    assert.deepEqual(core['series'], v1['series']);
    assert.notEqual(core.metadata, v1.metadata, 'new metadata: the store shares what it returns');
    assert.deepEqual(eventCoreToV1(core), v1);
  });
});

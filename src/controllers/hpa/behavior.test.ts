import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyRecord, normalize, recordScale, scaleDownLimit, scaleUpLimit, type Behavior } from './behavior.js';
import { behaviorOf } from './hpa-sync.js';
import type { Hpa } from './types.js';

/** What the controller applies to an HPA that gives no behavior: Kubernetes' defaults (api/defaults/hpa-defaults.ts). */
const noBehavior: Hpa = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web' },
  spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 10 },
};
const defaults = (): Behavior => behaviorOf(noBehavior);
const bounds = { min: 1, max: 100 };

describe('HPA behavior', () => {
  it('scale-up rate: the greater of 4 pods and 100 % per 15 s by default', () => {
    assert.equal(scaleUpLimit(1, emptyRecord(), defaults().scaleUp, 0), 5);
    assert.equal(scaleUpLimit(10, emptyRecord(), defaults().scaleUp, 0), 20);
    const n = normalize(emptyRecord(), defaults(), bounds, 2, 50, 0);
    assert.deepEqual([n.replicas, n.limited, n.reason], [6, true, 'ScaleUpLimit']);
  });

  it('changes made within a period count against it; Min and Disabled', () => {
    const record = emptyRecord();
    recordScale(record, defaults(), 2, 6, 0);
    // 10 s later the period started at 2 replicas: Pods allows 6, Percent 4 → 6, no more than now.
    assert.equal(scaleUpLimit(6, record, defaults().scaleUp, 10_000), 6);
    assert.equal(scaleUpLimit(6, record, defaults().scaleUp, 16_000), 12);
    assert.equal(scaleUpLimit(10, emptyRecord(), { ...defaults().scaleUp, selectPolicy: 'Min' }, 0), 14);
    assert.equal(scaleUpLimit(10, emptyRecord(), { ...defaults().scaleUp, selectPolicy: 'Disabled' }, 0), 10);
    assert.equal(scaleDownLimit(10, emptyRecord(), { ...defaults().scaleDown, policies: [{ type: 'Pods', value: 3, periodSeconds: 60 }] }, 0), 7);
  });

  it('scale-down stabilization keeps the highest recommendation of the window', () => {
    const record = emptyRecord();
    assert.equal(normalize(record, defaults(), bounds, 4, 4, 0).replicas, 4);
    const down = normalize(record, defaults(), bounds, 4, 1, 60_000);
    assert.deepEqual([down.replicas, down.stabilized?.reason], [4, 'ScaleDownStabilized']);
    // Past the 300 s window the old recommendation no longer holds it up.
    assert.equal(normalize(record, defaults(), bounds, 4, 1, 361_000).replicas, 1);
  });

  it('a short scale-down window lets it go down soon; bounds give TooFewReplicas / TooManyReplicas', () => {
    const behavior = defaults();
    behavior.scaleDown.stabilizationWindowSeconds = 5;
    const record = emptyRecord();
    normalize(record, behavior, bounds, 3, 3, 0);
    assert.equal(normalize(record, behavior, bounds, 3, 1, 6_000).replicas, 1);
    const low = normalize(emptyRecord(), behavior, { min: 2, max: 3 }, 3, 1, 0);
    assert.deepEqual([low.replicas, low.reason, low.limited], [2, 'TooFewReplicas', true]);
    const high = normalize(emptyRecord(), behavior, { min: 1, max: 3 }, 2, 9, 0);
    assert.deepEqual([high.replicas, high.reason], [3, 'TooManyReplicas']);
  });

  it('scale-up stabilization keeps the lowest recommendation of its window', () => {
    const behavior = defaults();
    behavior.scaleUp.stabilizationWindowSeconds = 60;
    const record = emptyRecord();
    normalize(record, behavior, bounds, 2, 2, 0);
    const up = normalize(record, behavior, bounds, 2, 5, 30_000);
    assert.deepEqual([up.replicas, up.stabilized?.reason], [2, 'ScaleUpStabilized']);
  });
  it('stabilization holds the current count between both windows: an old high recommendation never scales up', () => {
    // Kubernetes' example: defaults, current 5, metrics ask 3, an earlier 8 in the 300 s down window.
    const record = emptyRecord();
    normalize(record, defaults(), bounds, 5, 8, 0);
    const held = normalize(record, defaults(), bounds, 5, 3, 60_000);
    assert.deepEqual([held.replicas, held.stabilized?.reason], [5, 'ScaleDownStabilized']);
    // The unstabilized 3 was recorded: once the 8 leaves the window, 3 and 4 hold it at 4.
    normalize(record, defaults(), bounds, 5, 4, 120_000);
    assert.equal(normalize(record, defaults(), bounds, 5, 2, 301_000).replicas, 4);
  });

  it('stabilization with both windows: up takes the lowest of its window, down the highest of its', () => {
    const behavior = defaults();
    behavior.scaleUp.stabilizationWindowSeconds = 60;
    const record = emptyRecord();
    normalize(record, behavior, bounds, 2, 3, 0);
    normalize(record, behavior, bounds, 2, 7, 10_000);
    // Up window holds 3 and 7: the lowest, 3, is as far as it may go up.
    assert.equal(normalize(record, behavior, bounds, 2, 9, 20_000).replicas, 3);
    // A count already above the down window's highest (9) comes down to it.
    assert.equal(normalize(record, behavior, bounds, 12, 9, 30_000).replicas, 9);
    // A count inside [lowest up, highest down] stays.
    assert.equal(normalize(record, behavior, bounds, 5, 1, 40_000).replicas, 5);
  });
});

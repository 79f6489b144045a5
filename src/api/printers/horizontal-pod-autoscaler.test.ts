import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hpaPrinter } from './horizontal-pod-autoscaler.js';

const cpu = (target: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } });

describe('HorizontalPodAutoscaler printer', () => {
  it("prints kubectl's columns, with metrics as current/target", () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [cpu(50), { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } }],
      },
      status: {
        currentReplicas: 2,
        desiredReplicas: 2,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '24m' } } }],
      },
    };
    assert.deepEqual(
      hpaPrinter.columns.map((c) => c.name),
      ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    );
    assert.deepEqual(hpaPrinter.row(hpa, new Date('2026-01-01T00:05:00Z')), [
      'web',
      'Deployment/web',
      'cpu: 12%/50%, memory: <unknown>/100Mi',
      '1',
      3,
      2,
      '5m',
    ]);
  });

  it('says <unknown> before the first reading, and how many more past two', () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 2, metrics: [cpu(50), cpu(60), cpu(70)] },
    };
    const row = hpaPrinter.row(hpa, new Date());
    assert.equal(row[2], 'cpu: <unknown>/50%, cpu: <unknown>/60% + 1 more...');
    assert.equal(row[3], '<unset>');
  });
});

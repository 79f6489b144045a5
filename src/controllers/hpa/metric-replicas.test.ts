import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { computeMetricReplicas } from './metric-replicas.js';
import { parseGoDuration } from './pod-metrics.js';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [
      { name: 'app', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
      { name: 'sidecar', resources: { requests: { cpu: '100m' } } },
    ],
  },
  status: { phase: 'Running', startTime: '2026-01-01T00:00:00Z', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:05Z' }] },
});
const metrics = (name: string, app: string, sidecar: string) => ({
  metadata: { name },
  timestamp: '2026-01-01T00:59:59Z',
  window: '15.002s',
  containers: [
    { name: 'app', usage: { cpu: app, memory: '32Mi' } },
    { name: 'sidecar', usage: { cpu: sidecar, memory: '1Mi' } },
  ],
});

describe('the replicas each metric asks for', () => {
  it('Resource counts the whole pod; ContainerResource the one container; the greater wins', () => {
    const pods = [pod('a'), pod('b')];
    const podMetrics = [metrics('a', '150m', '10m'), metrics('b', '150m', '10m')];
    const outcome = computeMetricReplicas(
      [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
        { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      2,
      pods,
      podMetrics,
      NOW,
    );
    // Pod: 160m of 200m = 80 % → stays 2. Container app: 150 % of 50 % → 6.
    assert.equal(outcome.replicas, 6);
    assert.equal(outcome.metricName, 'cpu container resource utilization (percentage of request)');
    assert.deepEqual(outcome.statuses, [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 80, averageValue: '160m' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', current: { averageUtilization: 150, averageValue: '150m' } } },
    ]);
    assert.deepEqual(outcome.errors, []);
  });

  it('an unreadable metric API or an unsupported source is an error of its own', () => {
    const outcome = computeMetricReplicas(
      [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '16Mi' } } }, { type: 'Pods' }],
      2,
      [pod('a')],
      new Error('the server could not find the requested resource'),
      NOW,
    );
    assert.deepEqual(
      outcome.errors.map((e) => e.reason),
      ['FailedGetResourceMetric', 'FailedGetPodsMetric'],
    );
    assert.match(
      outcome.errors[0]!.message,
      /^failed to get memory resource metric value: unable to get metrics for resource memory: unable to fetch metrics from resource metrics API/,
    );
  });

  it('reads Go durations', () => {
    assert.equal(parseGoDuration('15.002s'), 15_002);
    assert.equal(parseGoDuration('1m0.5s'), 60_500);
    assert.equal(parseGoDuration('250ms'), 250);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SHAPE, HOLLOW_LABEL, hollowLabels, hollowNodeStatus } from './hollow-node.js';
import { hollowPodStatus, reportedRunning } from './hollow-pod-status.js';
import type { Pod } from '../api/core/index.js';

const now = new Date('2026-01-01T00:00:00Z');

describe('a hollow node', () => {
  it('reports the capacity asked for, Ready, on loopback, with no streaming endpoint', () => {
    const status = hollowNodeStatus('hollow-1', { ...DEFAULT_SHAPE, maxPods: 250, extendedResources: { 'example.com/gpu': 8 } }, undefined, now);
    assert.deepEqual(status.capacity, { cpu: '32', 'ephemeral-storage': '104857600Ki', memory: '268435456Ki', pods: '250', 'example.com/gpu': '8' });
    assert.deepEqual(status.allocatable, status.capacity);
    assert.deepEqual(
      status.conditions.map((c) => `${c.type}=${c.status}`),
      ['MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False', 'Ready=True'],
    );
    assert.deepEqual(status.addresses, [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: 'hollow-1' },
    ]);
    assert.equal(status.daemonEndpoints.kubeletEndpoint.Port, 0);
    assert.equal(status.nodeInfo['containerRuntimeVersion'], 'hollow://0.1.0');
  });

  it('is labelled as hollow, beside the labels a real node has and the ones asked for', () => {
    const labels = hollowLabels('hollow-1', { ...DEFAULT_SHAPE, labels: { zone: 'z1' } });
    assert.equal(labels[HOLLOW_LABEL], 'true');
    assert.equal(labels['kubernetes.io/hostname'], 'hollow-1');
    assert.equal(labels['kubernetes.io/os'], 'linux');
    assert.equal(labels['zone'], 'z1');
  });
});

describe('a pod on a hollow node', () => {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'u1' },
    spec: {
      nodeName: 'hollow-1',
      initContainers: [{ name: 'init', image: 'i' }],
      containers: [
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ],
    },
    status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-12-31T23:59:59Z' }] },
  };

  it('is reported Running and Ready with every container running, without being started', () => {
    const status = hollowPodStatus(pod, '127.64.0.1', now);
    assert.equal(status.phase, 'Running');
    assert.equal(status.podIP, '127.64.0.1');
    assert.equal(status.hostIP, '127.0.0.1');
    assert.deepEqual(
      status.containerStatuses?.map((c) => [c.name, Boolean(c.state.running), c.ready, c.containerID]),
      [
        ['a', true, true, 'hollow://u1-1'],
        ['b', true, true, 'hollow://u1-2'],
      ],
    );
    assert.equal(status.initContainerStatuses?.[0]?.state.terminated?.reason, 'Completed');
    const conditions = Object.fromEntries((status.conditions ?? []).map((c) => [c.type, c.status]));
    assert.deepEqual(conditions, { PodReadyToStartContainers: 'True', Initialized: 'True', Ready: 'True', ContainersReady: 'True', PodScheduled: 'True' });
    assert.equal(status.conditions?.find((c) => c.type === 'PodScheduled')?.lastTransitionTime, '2025-12-31T23:59:59Z', "the scheduler's condition is kept");
    assert.equal(reportedRunning(pod), false);
    assert.equal(reportedRunning({ ...pod, status }), true);
  });

  it('waits for its readiness gates as on a real node', () => {
    const gated: Pod = { ...pod, spec: { ...pod.spec, readinessGates: [{ conditionType: 'example.com/ready' }] } };
    const status = hollowPodStatus(gated, '127.64.0.1', now);
    assert.equal(status.phase, 'Running');
    assert.equal(status.conditions?.find((c) => c.type === 'Ready')?.status, 'False');
  });
});

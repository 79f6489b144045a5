import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HostFacts, Pressure } from './host-info.js';
import { buildNodeStatus, nodeLabels, statusChanged, type NodeStatusInput } from './node-object.js';

const facts: HostFacts = {
  cpus: 2,
  memoryBytes: 8 * 1024 ** 3,
  diskBytes: 100 * 1024 ** 3,
  hostname: 'h',
  os: 'linux',
  arch: 'amd64',
  kernelVersion: '6.1.0',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  machineID: 'm',
  bootID: 'b',
};
const calm: Pressure = { memoryAvailableBytes: 4 * 1024 ** 3, diskFreeRatio: 0.5, pidsUsed: 300, pidMax: 4_194_304 };

function input(extra: Partial<NodeStatusInput> = {}): NodeStatusInput {
  return {
    nodeName: 'n1',
    nodeAddress: '127.0.0.1',
    streamingPort: 10250,
    facts,
    pressure: calm,
    runtime: { ready: true, version: 'docker://27.5.1' },
    extendedResources: { 'example.com/gpu': 2 },
    now: new Date('2024-01-01T00:00:00Z'),
    ...extra,
  };
}

test('capacity is in Kubernetes units and carries extended resources', () => {
  const status = buildNodeStatus(input());
  assert.deepEqual(status.capacity, { cpu: '2', 'ephemeral-storage': '104857600Ki', memory: '8388608Ki', pods: '110', 'example.com/gpu': '2' });
  assert.deepEqual(status.allocatable, status.capacity);
  assert.deepEqual(status.addresses, [
    { type: 'InternalIP', address: '127.0.0.1' },
    { type: 'Hostname', address: 'n1' },
  ]);
  assert.equal(status.daemonEndpoints.kubeletEndpoint.Port, 10250);
  assert.equal(status.nodeInfo['containerRuntimeVersion'], 'docker://27.5.1');
  assert.equal(status.nodeInfo['kubeletVersion'], 'v1.32.0-drover');
  assert.equal(nodeLabels('n1', facts, { zone: 'a' })['kubernetes.io/hostname'], 'n1');
});

test('Ready is False with a reason when the runtime is down; pressure follows the thresholds', () => {
  const down = buildNodeStatus(
    input({ runtime: { ready: false, reason: 'RuntimeUnavailable', message: 'docker: connect ENOENT', version: 'docker://27.5.1' } }),
  );
  const ready = down.conditions.find((c) => c.type === 'Ready')!;
  assert.equal(ready.status, 'False');
  assert.equal(ready.reason, 'ContainerRuntimeUnhealthy');
  assert.match(ready.message ?? '', /docker: connect ENOENT/);
  const squeezed = buildNodeStatus(input({ pressure: { memoryAvailableBytes: 50 * 1024 ** 2, diskFreeRatio: 0.05, pidsUsed: 95, pidMax: 100 } }));
  for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) assert.equal(squeezed.conditions.find((c) => c.type === type)?.status, 'True', type);
});

test('transition times move only on a flip; heartbeats alone are no change', () => {
  const first = buildNodeStatus(input());
  const later = buildNodeStatus(input({ previous: first, now: new Date('2024-01-01T00:00:10Z') }));
  const ready = later.conditions.find((c) => c.type === 'Ready')!;
  assert.equal(ready.lastTransitionTime, '2024-01-01T00:00:00Z');
  assert.equal(ready.lastHeartbeatTime, '2024-01-01T00:00:10Z');
  assert.equal(statusChanged(later, first), false);
  const down = buildNodeStatus(input({ previous: first, runtime: { ready: false, version: 'docker://27.5.1' }, now: new Date('2024-01-01T00:00:20Z') }));
  assert.equal(down.conditions.find((c) => c.type === 'Ready')!.lastTransitionTime, '2024-01-01T00:00:20Z');
  assert.equal(statusChanged(down, first), true);
});

test('discovered devices: capacity counts all, allocatable the healthy ones, their condition joins the rest', () => {
  const devices = {
    capacity: { 'nvidia.com/gpu': 8 },
    allocatable: { 'nvidia.com/gpu': 7 },
    conditions: [
      { type: 'GPUUnhealthy', status: 'True' as const, reason: 'GPUUnhealthy', message: 'unhealthy GPUs, not allocatable: GPU-x (GPU requires reset)' },
    ],
  };
  const status = buildNodeStatus(input({ devices }));
  assert.equal(status.capacity['nvidia.com/gpu'], '8');
  assert.equal(status.allocatable['nvidia.com/gpu'], '7');
  assert.equal(status.allocatable['example.com/gpu'], '2');
  assert.equal(status.conditions.find((c) => c.type === 'GPUUnhealthy')?.status, 'True');
  const manual = buildNodeStatus(input({ devices, extendedResources: { 'nvidia.com/gpu': 2 } }));
  assert.equal(manual.capacity['nvidia.com/gpu'], '2', '--extended-resource wins');
  assert.equal(manual.allocatable['nvidia.com/gpu'], '2');
});

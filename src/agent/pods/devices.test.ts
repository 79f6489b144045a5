import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DeviceAllocator, GPU_RESOURCE, InsufficientDevicesError, containerDevices, deviceEnv, podNeeds } from './devices.js';
import type { Container, Pod } from '../../api/core/index.js';

const GPU = 'example.com/gpu';

function pod(uid: string, containers: Container[], initContainers: Container[] = []): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: uid, namespace: 'default', uid }, spec: { containers, initContainers } };
}

const gpus = (name: string, n: number): Container => ({ name, image: 'x', resources: { limits: { [GPU]: String(n) } } });

test('a pod needs the sum of its app containers or its largest init container', () => {
  assert.deepEqual(podNeeds(pod('a', [gpus('a', 1), gpus('b', 2)]), [GPU]), { [GPU]: 3 });
  assert.deepEqual(podNeeds(pod('a', [gpus('a', 1)], [gpus('i', 2)]), [GPU]), { [GPU]: 2 });
  assert.deepEqual(podNeeds(pod('a', [{ name: 'c', image: 'x' }]), [GPU]), {});
});

test('devices are disjoint between pods, reused after release, and survive a reload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drover-devices-'));
  try {
    const file = join(dir, 'devices.json');
    const alloc = new DeviceAllocator({ [GPU]: 2 }, file);
    alloc.load();
    const a = alloc.allocate('a', pod('a', [gpus('c', 1)]));
    const b = alloc.allocate('b', pod('b', [gpus('c', 1)]));
    assert.deepEqual(a, { [GPU]: [0] });
    assert.deepEqual(b, { [GPU]: [1] });
    assert.deepEqual(alloc.allocate('a', pod('a', [gpus('c', 1)])), a, 'idempotent');
    assert.throws(() => alloc.allocate('c', pod('c', [gpus('c', 1)])), InsufficientDevicesError);
    const reloaded = new DeviceAllocator({ [GPU]: 2 }, file);
    reloaded.load();
    reloaded.retain(new Set(['b']));
    assert.deepEqual(reloaded.allocate('c', pod('c', [gpus('c', 1)])), { [GPU]: [0] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('containers get slices of the pod set, and env names them', () => {
  const p = pod('a', [gpus('a', 1), gpus('b', 2)], [gpus('i', 1)]);
  const set = { [GPU]: [3, 5, 6] };
  assert.deepEqual(containerDevices(p, set, p.spec.containers[1]!, false), { [GPU]: [5, 6] });
  assert.deepEqual(containerDevices(p, set, p.spec.initContainers![0]!, true), { [GPU]: [3] });
  assert.deepEqual(deviceEnv({ [GPU]: [5, 6] }), { DROVER_VISIBLE_DEVICES_EXAMPLE_COM_GPU: '5,6', DROVER_VISIBLE_DEVICES: '5,6' });
});

test("on a GPU node: CUDA_VISIBLE_DEVICES and NVIDIA_VISIBLE_DEVICES are the GPUs' ids, or none", () => {
  const ids = { ids: (indices: readonly number[]) => indices.map((i) => `GPU-${i}`) };
  assert.deepEqual(deviceEnv({ [GPU_RESOURCE]: [2, 3] }, ids), {
    DROVER_VISIBLE_DEVICES_NVIDIA_COM_GPU: '2,3',
    DROVER_VISIBLE_DEVICES: '2,3',
    CUDA_VISIBLE_DEVICES: 'GPU-2,GPU-3',
    NVIDIA_VISIBLE_DEVICES: 'GPU-2,GPU-3',
  });
  assert.deepEqual(deviceEnv({}, ids), { CUDA_VISIBLE_DEVICES: '', NVIDIA_VISIBLE_DEVICES: 'void' }, 'a container without GPUs sees none');
  assert.deepEqual(deviceEnv({}), {}, 'a node without GPUs sets nothing');
});

test('unavailable (unhealthy) devices are not handed out; their holders keep them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drover-devices-'));
  try {
    const alloc = new DeviceAllocator({ [GPU_RESOURCE]: 4 }, join(dir, 'devices.json'));
    const two = (uid: string): Pod => pod(uid, [{ name: 'c', image: 'x', resources: { limits: { [GPU_RESOURCE]: '2' } } }]);
    assert.deepEqual(alloc.allocate('a', two('a')), { [GPU_RESOURCE]: [0, 1] });
    alloc.setUnavailable(GPU_RESOURCE, [1, 2]);
    assert.deepEqual(alloc.allocate('a', two('a')), { [GPU_RESOURCE]: [0, 1] });
    assert.throws(() => alloc.allocate('b', two('b')), /Requested: 2, Available: 1/);
    assert.deepEqual(
      [...alloc.holders(GPU_RESOURCE)],
      [
        [0, 'a'],
        [1, 'a'],
      ],
    );
    alloc.setUnavailable(GPU_RESOURCE, []);
    assert.deepEqual(alloc.allocate('b', two('b')), { [GPU_RESOURCE]: [2, 3] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

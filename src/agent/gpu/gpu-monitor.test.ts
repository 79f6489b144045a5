import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { silentLogger } from '../../client/index.js';
import { AnnotationThrottle, gpuAnnotations } from './gpu-annotations.js';
import { gpuRegistry } from './gpu-metrics.js';
import { discoverGpus, mergeTable, type GpuMonitor } from './gpu-monitor.js';
import { parseXid } from './xid.js';
import { standInNvidiaSmi, type StandInGpus } from '../../../test/support/agent/stand-in-gpus.js';

const logger = silentLogger;
let smi: StandInGpus;
let monitor: GpuMonitor;

before(async () => {
  smi = standInNvidiaSmi();
  monitor = (await discoverGpus({ logger, path: `${smi.dir}:/usr/bin:/bin` }))!;
});
after(() => smi.remove());

test('no nvidia-smi on the PATH: no GPUs', async () => {
  assert.equal(await discoverGpus({ logger, path: '/nonexistent' }), undefined);
});

test('discovery: 8 H100s, GPU feature discovery labels, all healthy', () => {
  assert.equal(monitor.count, 8);
  assert.deepEqual(monitor.labels(), { 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3', 'nvidia.com/gpu.memory': '81559', 'nvidia.com/gpu.count': '8' });
  assert.deepEqual(monitor.uuidsOf([1, 0]), smi.uuids().slice(0, 2).reverse());
  assert.equal(monitor.condition().status, 'False');
});

test('a GPU that vanishes or reports an NVML error is unhealthy until it answers again', async () => {
  const lines = smi.lines();
  const uuids = smi.uuids();
  try {
    smi.write(
      lines
        .filter((l) => !l.includes(uuids[3]!))
        .map((l) => (l.includes(uuids[5]!) ? l.replace(/, 31, 70\.77$/, ', [GPU requires reset], [GPU requires reset]') : l)),
    );
    assert.equal(await monitor.poll(), true);
    assert.deepEqual(monitor.unhealthyIndices(), [3, 5]);
    assert.equal(monitor.healthyCount(), 6);
    const condition = monitor.condition();
    assert.equal(condition.status, 'True');
    assert.match(condition.message, new RegExp(`${uuids[3]} \\(not reported by nvidia-smi\\)`));
    assert.match(condition.message, new RegExp(`${uuids[5]} \\(GPU requires reset\\)`));
    assert.match(gpuAnnotations(monitor)['drover.dev/gpu-3'] ?? '', /unhealthy: not reported by nvidia-smi$/);
    assert.equal(await monitor.poll(), false, 'unchanged health is no change');
  } finally {
    smi.write(lines);
  }
  assert.equal(await monitor.poll(), true);
  assert.deepEqual(monitor.unhealthyIndices(), []);
});

test('annotations: uuid, name, utilization, memory; rewritten only on a material change, at most every 30 s', async () => {
  await monitor.poll();
  assert.equal(gpuAnnotations(monitor)['drover.dev/gpu-0'], `${smi.uuids()[0]}, NVIDIA H100 80GB HBM3, 0%, 0/81559 MiB`);
  const throttle = new AnnotationThrottle(30_000);
  assert.ok(throttle.due(monitor, 60_000), 'the first time');
  assert.equal(throttle.due(monitor, 100_000), undefined, 'nothing moved');
  const lines = smi.lines();
  try {
    smi.write(lines.map((l, i) => (i === 1 ? l.replace(', 0, 0, 31,', ', 2, 300, 31,') : l)));
    await monitor.poll();
    assert.equal(throttle.due(monitor, 100_000), undefined, 'below 5 points and 1% of memory');
    smi.write(lines.map((l, i) => (i === 1 ? l.replace(', 0, 0, 31,', ', 87, 40000, 31,') : l)));
    await monitor.poll();
    assert.equal(throttle.due(monitor, 85_000), undefined, 'moved, but within 30 s of the last write');
    assert.match(throttle.due(monitor, 90_000)?.['drover.dev/gpu-0'] ?? '', /, 87%, 40000\/81559 MiB$/);
  } finally {
    smi.write(lines);
    await monitor.poll();
  }
});

test('metrics: dcgm-exporter names and labels, the holder pod where there is one', async () => {
  const registry = gpuRegistry(monitor, 'node-a', (i) => (i === 2 ? { namespace: 'ml', pod: 'train', container: 'main' } : undefined));
  const text = await registry.metrics();
  for (const name of ['DCGM_FI_DEV_GPU_UTIL', 'DCGM_FI_DEV_FB_USED', 'DCGM_FI_DEV_FB_FREE', 'DCGM_FI_DEV_GPU_TEMP', 'DCGM_FI_DEV_POWER_USAGE']) {
    assert.equal(text.split('\n').filter((l) => l.startsWith(`${name}{`)).length, 8, name);
  }
  const uuid = smi.uuids()[2]!;
  assert.ok(
    text.includes(
      `DCGM_FI_DEV_FB_FREE{gpu="2",UUID="${uuid}",device="nvidia2",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",namespace="ml",pod="train",container="main"} 81559`,
    ),
    text,
  );
  assert.ok(
    text.includes(
      `DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="${smi.uuids()[0]}",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",namespace="",pod="",container=""} 69.88`,
    ),
  );
});

test("the index-to-UUID table survives a restart: a GPU gone meanwhile keeps its index, unhealthy, and nvidia-smi's renumbering changes nothing", async () => {
  const tableFile = join(smi.dir, 'gpus.json');
  const first = (await discoverGpus({ logger, path: smi.dir, tableFile }))!;
  const lines = smi.lines();
  const uuids = smi.uuids();
  try {
    // GPU 0 fell off the bus; nvidia-smi numbers the other seven 0..6.
    smi.write([lines[0]!, ...lines.slice(2).map((l, i) => l.replace(/^\d+,/, `${i},`))]);
    const restarted = (await discoverGpus({ logger, path: smi.dir, tableFile }))!;
    assert.deepEqual(
      restarted.gpus.map((g) => g.uuid),
      first.gpus.map((g) => g.uuid),
    );
    assert.deepEqual(restarted.unhealthyIndices(), [0]);
    assert.deepEqual(restarted.uuidsOf([1]), [uuids[1]]);
  } finally {
    smi.write(lines);
  }
});

test("a fatal Xid takes the GPU at that PCI address out until the agent restarts; an application Xid or another node's address changes nothing", async () => {
  const own = (await discoverGpus({ logger, path: smi.dir }))!;
  const uuids = smi.uuids();
  let told = 0;
  own.onHealthChange(() => told++);
  assert.equal(own.markXid(parseXid('NVRM: Xid (PCI:0000:ab:00): 13, pid=99, name=python3, Graphics SM Warp Exception on (GPC 0, TPC 0, SM 0)')!), false);
  assert.equal(own.markXid(parseXid('NVRM: Xid (PCI:0000:c1:00): 79, GPU has fallen off the bus.')!), false, 'no GPU of this node');
  assert.equal(own.markXid(parseXid('NVRM: Xid (PCI:0000:ab:00): 79, pid=1234, name=python3, GPU has fallen off the bus.')!), true);
  assert.equal(told, 1);
  assert.deepEqual(own.unhealthyIndices(), [5]);
  assert.equal(
    own.condition().message,
    `unhealthy GPUs, not allocatable: ${uuids[5]} (PCI 0000:ab:00): Xid 79 GPU has fallen off the bus; unhealthy until the GPU is reset and the agent restarted`,
  );
  assert.equal(await own.poll(), false, 'nvidia-smi still lists it: it stays out');
  assert.deepEqual(own.unhealthyIndices(), [5]);
  assert.equal(own.markXid(parseXid('NVRM: Xid (PCI:0000:ab:00): 48, An uncorrectable double bit error (DBE) has been detected.')!), false, 'already out');
});

test('a table saved before the PCI bus id was read takes it from the GPUs found now', () => {
  const gpu = { index: 0, uuid: 'GPU-a', name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559 };
  assert.deepEqual(
    mergeTable(
      [gpu],
      [
        { ...gpu, busId: '0000:18:00' },
        { ...gpu, index: 1, uuid: 'GPU-b', busId: '0000:2a:00' },
      ],
    ).map((g) => g.busId),
    ['0000:18:00', '0000:2a:00'],
  );
  assert.deepEqual(mergeTable([gpu], []), [gpu], 'a GPU not found keeps what the table says');
});

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findOnPath, isFault, parseInventory, parseSamples } from './nvidia-smi.js';

// Lines as `nvidia-smi --query-gpu=... --format=csv,noheader,nounits` prints them on an H100 node.
const INVENTORY = `1, GPU-8e2d4b6a-1c3f-4a7e-b2d9-5f6a7c8e9d12, NVIDIA H100 80GB HBM3, 81559, 00000000:2A:00.0
0, GPU-3f9a1c2e-7b41-4d0e-9a55-0c1f2e8b7d01, NVIDIA H100 80GB HBM3, 81559, 00000000:18:00.0
`;

test("the inventory query parses into GPUs in index order, the PCI bus id in the kernel log's spelling", () => {
  assert.deepEqual(parseInventory(INVENTORY), [
    { index: 0, uuid: 'GPU-3f9a1c2e-7b41-4d0e-9a55-0c1f2e8b7d01', name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559, busId: '0000:18:00' },
    { index: 1, uuid: 'GPU-8e2d4b6a-1c3f-4a7e-b2d9-5f6a7c8e9d12', name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559, busId: '0000:2a:00' },
  ]);
});

test('lines that are not GPUs (an NVML error for one GPU) are left out', () => {
  const text = `Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error\n${INVENTORY}2, [GPU requires reset], [GPU requires reset], [GPU requires reset]\n`;
  assert.deepEqual(
    parseInventory(text).map((g) => g.index),
    [0, 1],
  );
});

test('samples: numbers, [N/A] left out, NVML errors as the fault', () => {
  const [ok, na, bad] = parseSamples(
    [
      '0, GPU-a, 37, 1024, 81559, 31, 69.88',
      '1, GPU-b, 0, 0, 81559, 30, [N/A]',
      '2, GPU-c, [GPU requires reset], [GPU requires reset], 81559, [GPU requires reset], [GPU requires reset]',
    ].join('\n'),
  );
  assert.deepEqual(ok, { index: 0, uuid: 'GPU-a', utilizationPercent: 37, memoryUsedMiB: 1024, memoryTotalMiB: 81559, temperatureC: 31, powerW: 69.88 });
  assert.deepEqual(na, { index: 1, uuid: 'GPU-b', utilizationPercent: 0, memoryUsedMiB: 0, memoryTotalMiB: 81559, temperatureC: 30 });
  assert.equal(bad?.fault, 'GPU requires reset');
  assert.equal(isFault('[Not Supported]'), false);
  assert.equal(isFault('[GPU is lost]'), true);
});

test('findOnPath finds an executable as a shell would, first directory first', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drover-path-'));
  try {
    writeFileSync(join(dir, 'nvidia-smi'), '#!/bin/sh\n');
    assert.equal(findOnPath('nvidia-smi', `/nonexistent:${dir}`), undefined, 'not executable: not found');
    chmodSync(join(dir, 'nvidia-smi'), 0o755);
    assert.equal(findOnPath('nvidia-smi', `/nonexistent:${dir}`), join(dir, 'nvidia-smi'));
    assert.equal(findOnPath('nvidia-smi', '/nonexistent'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

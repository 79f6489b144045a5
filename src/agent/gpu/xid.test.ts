import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFatalXid, normaliseBusId, parseXid } from './xid.js';

test('Xid lines as the driver logs them: with and without pid/name, unknown process, MIG instance', () => {
  assert.deepEqual(parseXid('NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python3, GPU has fallen off the bus.'), {
    busId: '0000:3b:00',
    xid: 79,
    text: 'GPU has fallen off the bus',
  });
  assert.deepEqual(parseXid('NVRM: Xid (PCI:0000:07:00): 79, GPU has fallen off the bus.'), {
    busId: '0000:07:00',
    xid: 79,
    text: 'GPU has fallen off the bus',
  });
  assert.deepEqual(parseXid("NVRM: Xid (PCI:0000:00:1e): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."), {
    busId: '0000:00:1e',
    xid: 79,
    text: 'GPU has fallen off the bus',
  });
  assert.deepEqual(parseXid('NVRM: Xid (PCI:0000:ca:00 GPU-I:05): 31, pid=4242, name=train, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS'), {
    busId: '0000:ca:00',
    xid: 31,
    text: 'Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS',
  });
  assert.equal(
    parseXid(
      'NVRM: Xid (PCI:0000:3b:00): 48, pid=77, name=python3, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.',
    )?.xid,
    48,
  );
});

test('lines that are not Xid errors are not', () => {
  assert.equal(parseXid('NVRM: GPU at PCI:0000:3b:00: GPU-5fc0bcec-c2e1-38dc-8994-2a9f9f3b709e'), undefined);
  assert.equal(parseXid('nvidia-nvswitch1: SXid (PCI:0000:aa:00.0): 24007, Severity 1 Engine instance 12'), undefined);
  assert.equal(parseXid('oom-kill:constraint=CONSTRAINT_MEMCG'), undefined);
});

test('fatal Xids need a GPU reset; application-level ones do not', () => {
  for (const xid of [48, 74, 79, 95, 119, 120]) assert.equal(isFatalXid(xid), true, `Xid ${xid}`);
  for (const xid of [13, 31, 43, 45, 94]) assert.equal(isFatalXid(xid), false, `Xid ${xid}`);
});

test("nvidia-smi's pci.bus_id and the kernel log's PCI address normalise alike", () => {
  assert.equal(normaliseBusId('00000000:3B:00.0'), '0000:3b:00');
  assert.equal(normaliseBusId('0000:3b:00'), '0000:3b:00');
  assert.equal(normaliseBusId('00000001:DB:00.0'), '0001:db:00');
  assert.equal(normaliseBusId('[N/A]'), undefined);
  assert.equal(normaliseBusId(''), undefined);
});

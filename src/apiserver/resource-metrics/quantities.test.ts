import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuQuantity, goDuration, memoryQuantity } from './quantities.js';

describe('metrics quantities', () => {
  it('CPU in nanocores, canonical', () => {
    assert.equal(cpuQuantity(200_000_000), '200m');
    assert.equal(cpuQuantity(199_876_543), '199876543n');
    assert.equal(cpuQuantity(2_000_000_000), '2');
    assert.equal(cpuQuantity(1_500_000), '1500u');
    assert.equal(cpuQuantity(0), '0');
  });

  it('memory in bytes, binary where whole, decimal below 1024 or when not', () => {
    assert.equal(memoryQuantity(4096 * 3000), '12000Ki');
    assert.equal(memoryQuantity(64 * 1024 * 1024), '64Mi');
    assert.equal(memoryQuantity(12345), '12345');
    assert.equal(memoryQuantity(1000), '1k');
  });

  it('windows as Go durations', () => {
    assert.equal(goDuration(15), '15s');
    assert.equal(goDuration(15.0123), '15.012s');
    assert.equal(goDuration(60.5), '1m0.5s');
    assert.equal(goDuration(0.25), '250ms');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageSeries, usageBetween } from './usage-series.js';

const s = (time: number, cpuNs: number, memory = 100, instance = 'a') => ({ time, instance, cpuNs, memoryWorkingSetBytes: memory });

describe('usage series', () => {
  it("a rate is the counter's growth over the window", () => {
    assert.deepEqual(usageBetween(s(0, 0), s(15_000, 3e9)), {
      time: 15_000,
      windowSeconds: 15,
      usageNanoCores: 2e8,
      usageCoreNanoSeconds: 3e9,
      workingSetBytes: 100,
    });
  });

  it('no rate across a restart, over less than a second, or from a counter that went back', () => {
    assert.equal(usageBetween(s(0, 0), s(15_000, 1e9, 100, 'b')), undefined);
    assert.equal(usageBetween(s(0, 0), s(999, 1e9)), undefined);
    assert.equal(usageBetween(s(0, 5e9), s(15_000, 1e9))?.usageNanoCores, undefined);
  });

  it('current: the newest sample (on demand too) against the newest periodic one a second older', () => {
    const series = new UsageSeries(240);
    series.recordPeriodic(s(0, 0));
    series.recordPeriodic(s(15_000, 1.5e9));
    assert.equal(series.current()?.usageNanoCores, 1e8);
    series.recordOnDemand(s(20_000, 2.5e9, 300));
    assert.deepEqual(series.current(), { time: 20_000, windowSeconds: 5, usageNanoCores: 2e8, usageCoreNanoSeconds: 2.5e9, workingSetBytes: 300 });
    series.recordOnDemand(s(15_500, 2.5e9));
    // A newer periodic sample supersedes the on-demand one.
    series.recordPeriodic(s(30_000, 4e9));
    assert.equal(series.current()?.time, 30_000);
    assert.deepEqual(
      series.history().map((p) => p.usageNanoCores),
      [1e8, 166666667],
    );
  });

  it('a container with one sample is measured from its start', () => {
    const series = new UsageSeries(240);
    series.recordOnDemand(s(4_000, 0.6e9), 1_000);
    assert.equal(series.current()?.usageNanoCores, 2e8);
    assert.equal(series.current()?.windowSeconds, 3);
    assert.equal(new UsageSeries(240).current(), undefined);
  });

  it('keeps a bounded history', () => {
    const series = new UsageSeries(3);
    for (let i = 0; i < 10; i++) series.recordPeriodic(s(i * 15_000, i * 1e9));
    assert.equal(series.history().length, 3);
    assert.equal(series.history()[0]!.time, 7 * 15_000);
  });
});

import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { KeyedCounter, KeyedHistogram } from './keyed-series.js';

describe('keyed series', () => {
  it('export counters and cumulative histogram buckets as prom-client metrics do', async () => {
    const registry = new Registry();
    const counter = new KeyedCounter('requests_total', 'Requests', registry);
    const histogram = new KeyedHistogram('latency_seconds', 'Latency', registry, [0.1, 1]);
    const labelsOf = (code: string) => () => ({ verb: 'GET', code });
    counter.inc('GET 200', labelsOf('200'));
    counter.inc('GET 200', labelsOf('200'), 2);
    counter.inc('GET 404', labelsOf('404'));
    for (const seconds of [0.05, 0.1, 0.5, 3]) histogram.observe('GET', () => ({ verb: 'GET' }), seconds);
    const text = await registry.metrics();
    assert.match(text, /# TYPE requests_total counter/);
    assert.match(text, /requests_total\{verb="GET",code="200"\} 3\n/);
    assert.match(text, /requests_total\{verb="GET",code="404"\} 1\n/);
    assert.match(text, /# TYPE latency_seconds histogram/);
    // A bound counts the observations at or below it (0.1 is in the 0.1 bucket), +Inf all of them.
    assert.match(text, /latency_seconds_bucket\{verb="GET",le="0.1"\} 2\n/);
    assert.match(text, /latency_seconds_bucket\{verb="GET",le="1"\} 3\n/);
    assert.match(text, /latency_seconds_bucket\{verb="GET",le="\+Inf"\} 4\n/);
    assert.match(text, /latency_seconds_sum\{verb="GET"\} 3.65\n/);
    assert.match(text, /latency_seconds_count\{verb="GET"\} 4\n/);
  });

  it("build a series' labels once, when it is first seen", () => {
    const registry = new Registry();
    const counter = new KeyedCounter('calls_total', 'Calls', registry);
    let built = 0;
    const labelsOf = () => {
      built++;
      return { op: 'get' };
    };
    for (let i = 0; i < 5; i++) counter.inc('get', labelsOf);
    assert.equal(built, 1);
  });

  it('merge into another registry and reset', async () => {
    const own = new Registry();
    const counter = new KeyedCounter('merged_total', 'Merged', own);
    counter.inc('x', () => ({ op: 'x' }));
    assert.match(await Registry.merge([own, new Registry()]).metrics(), /merged_total\{op="x"\} 1/);
    own.resetMetrics();
    assert.doesNotMatch(await own.metrics(), /merged_total\{/);
  });
});

// A counter and a histogram for the API server's request path. prom-client validates and hashes
// the labels on every call: with the request counter, the latency histogram and the store's
// histogram that was ~4 µs of every request (measured in a loop; more under load), the largest
// single cost of a get after TLS. Here a series is found by a key the caller makes from its label
// values, and its labels are built once, when the series is first seen. Both serve prom-client's
// metric format (get()), so a prom-client Registry exports them beside its own metrics.
import type { MetricObjectWithValues, MetricType, MetricValue, MetricValueWithName, Registry } from 'prom-client';

type Labels = Record<string, string>;

abstract class KeyedMetric<Series> {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum' as const;
  protected readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // A Registry takes any object with prom-client's metric shape (name, type, get, reset).
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of `key` (one key per set of label values), made on first use with labelsOf()'s labels. */
  protected seriesOf(key: string, labelsOf: () => Labels, make: (labels: Labels) => Series): Series {
    let found = this.series.get(key);
    if (!found) {
      found = make(labelsOf());
      this.series.set(key, found);
    }
    return found;
  }

  reset(): void {
    this.series.clear();
  }

  abstract get(): Promise<MetricObjectWithValues<MetricValue<string>>>;

  /** The metric as prom-client's registries read it. */
  protected exported<V extends MetricValue<string>>(values: V[]): MetricObjectWithValues<V> {
    // MetricType is a type-only enum in prom-client's typings: its values are these strings.
    return { name: this.name, help: this.help, type: this.type as unknown as MetricType, aggregator: this.aggregator, collect: () => undefined, values };
  }
}

interface CounterSeries {
  labels: Labels;
  value: number;
}

export class KeyedCounter extends KeyedMetric<CounterSeries> {
  readonly type = 'counter';

  inc(key: string, labelsOf: () => Labels, by = 1): void {
    this.seriesOf(key, labelsOf, (labels) => ({ labels, value: 0 })).value += by;
  }

  async get(): Promise<MetricObjectWithValues<MetricValue<string>>> {
    return this.exported([...this.series.values()].map(({ labels, value }) => ({ labels, value })));
  }
}

interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class KeyedHistogram extends KeyedMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, registry);
  }

  observe(key: string, labelsOf: () => Labels, value: number): void {
    const series = this.seriesOf(key, labelsOf, (labels) => ({ labels, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 }));
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    series.counts[bucket]! += 1;
    series.sum += value;
    series.count += 1;
  }

  /** Starts a timer; the function it returns observes the seconds since. */
  startTimer(key: string, labelsOf: () => Labels): () => void {
    const started = process.hrtime.bigint();
    return () => this.observe(key, labelsOf, Number(process.hrtime.bigint() - started) / 1e9);
  }

  async get(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const values: Array<MetricValueWithName<string>> = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return this.exported(values);
  }
}

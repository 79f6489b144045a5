// The agent's resource figures: every 15 s (metrics-server's resolution) it reads each running
// container's cgroup and the node's /proc, and keeps an hour of those rounds in memory (240
// steps per container and for the node; a pod's series goes when its pod does). A request for
// the current figures takes a fresh round first when the newest is older than a few seconds.
import type { Logger } from '../../client/index.js';
import { readCgroupUsage, type CgroupPaths, type CgroupUsage } from './cgroup-usage.js';
import type { ContainerTarget } from './container-targets.js';
import { readNodeUsage } from './node-usage.js';
import { UsageSeries, type RawSample, type UsagePoint } from './usage-series.js';
import type { PodRef, StatsHistory, StatsSummary } from './stats-shape.js';

export interface ResourceSamplerOptions {
  nodeName: string;
  targets(): Promise<ContainerTarget[]>;
  readContainer?(paths: CgroupPaths): Promise<CgroupUsage>;
  readNode?(): Promise<CgroupUsage>;
  /** Default 15 s. */
  intervalMs?: number;
  /** Rounds of history kept; default 240 (an hour at 15 s). */
  historySteps?: number;
  /** A summary request takes a fresh round when the newest is older than this; default 5 s. */
  freshMs?: number;
  logger?: Logger;
}

interface ContainerSeries {
  pod: PodRef;
  container: string;
  series: UsageSeries;
}

type Round = 'periodic' | 'onDemand';

export class ResourceSampler {
  private readonly node: UsageSeries;
  private readonly containers = new Map<string, ContainerSeries>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: { round: Round; done: Promise<void> } | undefined;
  private readonly steps: number;

  constructor(private readonly options: ResourceSamplerOptions) {
    this.steps = options.historySteps ?? 240;
    this.node = new UsageSeries(this.steps);
  }

  get intervalMs(): number {
    return this.options.intervalMs ?? 15_000;
  }

  start(): void {
    const tick = () => void this.sample('periodic').catch((error: unknown) => this.options.logger?.warn(`resource sample: ${String(error)}`));
    tick();
    this.timer = setInterval(tick, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The figures of now, as /stats/summary serves them. */
  async summary(): Promise<StatsSummary> {
    const newest = this.node.newest;
    if (newest === undefined || Date.now() - newest > (this.options.freshMs ?? 5000)) await this.sample('onDemand');
    const pods = new Map<string, StatsSummary['pods'][number]>();
    for (const entry of this.containers.values()) {
      const point = entry.series.current();
      if (!point) continue;
      let pod = pods.get(entry.pod.uid);
      if (!pod) pods.set(entry.pod.uid, (pod = { podRef: entry.pod, containers: [] }));
      pod.containers.push({ name: entry.container, ...figures(point) });
    }
    const node = this.node.current();
    return { node: { nodeName: this.options.nodeName, ...(node ? figures(node) : {}) }, pods: [...pods.values()] };
  }

  /** The last hour, one point per round; `filter` narrows the pods (the node's series is always there). */
  history(filter: { namespace?: string; pod?: string } = {}): StatsHistory {
    const pods = new Map<string, StatsHistory['pods'][number]>();
    for (const entry of this.containers.values()) {
      if (filter.namespace !== undefined && entry.pod.namespace !== filter.namespace) continue;
      if (filter.pod !== undefined && entry.pod.name !== filter.pod) continue;
      let pod = pods.get(entry.pod.uid);
      if (!pod) pods.set(entry.pod.uid, (pod = { podRef: entry.pod, containers: [] }));
      pod.containers.push({ name: entry.container, points: entry.series.history().map(historyPoint) });
    }
    return {
      stepSeconds: this.intervalMs / 1000,
      node: { nodeName: this.options.nodeName, points: this.node.history().map(historyPoint) },
      pods: [...pods.values()],
    };
  }

  /** Every container's series, for the cAdvisor-named metrics: the newest counters. */
  newestCounters(): Array<{ pod: PodRef; container: string; usage: UsagePoint }> {
    const out: Array<{ pod: PodRef; container: string; usage: UsagePoint }> = [];
    for (const entry of this.containers.values()) {
      const usage = entry.series.current();
      if (usage) out.push({ pod: entry.pod, container: entry.container, usage });
    }
    return out;
  }

  /**
   * Rounds never overlap: a request during one waits for it. A periodic tick during an
   * on-demand round takes its own round after it, or that step would be missing from the
   * history and the pods gone since would keep their series.
   */
  private sample(round: Round): Promise<void> {
    const running = this.inFlight;
    if (running && (round === 'onDemand' || running.round === 'periodic')) return running.done;
    const after = running ? running.done.catch(() => undefined) : Promise.resolve();
    const entry: { round: Round; done: Promise<void> } = {
      round,
      done: after
        .then(() => this.takeRound(round))
        .finally(() => {
          if (this.inFlight === entry) this.inFlight = undefined;
        }),
    };
    this.inFlight = entry;
    return entry.done;
  }

  private async takeRound(round: Round): Promise<void> {
    const targets = await this.options.targets();
    const read = this.options.readContainer ?? readCgroupUsage;
    const [nodeUsage, usages] = await Promise.all([(this.options.readNode ?? readNodeUsage)(), Promise.all(targets.map((t) => read(t.cgroups)))]);
    const time = Date.now();
    record(this.node, round, { time, instance: 'node', ...nodeUsage });
    const live = new Set<string>();
    targets.forEach((target, i) => {
      const key = `${target.uid}/${target.container}`;
      live.add(key);
      let entry = this.containers.get(key);
      if (!entry) {
        entry = { pod: { namespace: target.namespace, name: target.pod, uid: target.uid }, container: target.container, series: new UsageSeries(this.steps) };
        this.containers.set(key, entry);
      }
      record(entry.series, round, { time, instance: target.id, ...usages[i]! }, target.startedAt);
    });
    // A periodic round sees every running container: what it misses has ended or gone.
    if (round === 'periodic') for (const key of this.containers.keys()) if (!live.has(key)) this.containers.delete(key);
  }
}

function record(series: UsageSeries, round: Round, sample: RawSample, startedAt?: number): void {
  if (round === 'periodic') series.recordPeriodic(sample, startedAt);
  else series.recordOnDemand(sample, startedAt);
}

function figures(point: UsagePoint) {
  const time = new Date(point.time).toISOString();
  return {
    cpu: {
      time,
      windowSeconds: point.windowSeconds,
      ...(point.usageNanoCores === undefined ? {} : { usageNanoCores: point.usageNanoCores }),
      ...(point.usageCoreNanoSeconds === undefined ? {} : { usageCoreNanoSeconds: point.usageCoreNanoSeconds }),
    },
    memory: { time, ...(point.workingSetBytes === undefined ? {} : { workingSetBytes: point.workingSetBytes }) },
  };
}

function historyPoint(point: UsagePoint) {
  return {
    time: new Date(point.time).toISOString(),
    ...(point.usageNanoCores === undefined ? {} : { usageNanoCores: point.usageNanoCores }),
    ...(point.workingSetBytes === undefined ? {} : { workingSetBytes: point.workingSetBytes }),
  };
}

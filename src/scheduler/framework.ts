// The scheduling framework: one pod in, one node (or the reasons there is none) out. Pure and
// synchronous up to the bind stage, so a thin loop can drive it from informer events and the
// same code answers unit tests and benchmarks without an API server.
import type { KubeObject } from '../api/meta.js';
import { fitErrorMessage } from './fit-error.js';
import type { NodeInfo } from './node-info.js';
import { preFilterPassed, type CycleContext, type Plugin, type PreFilterPass } from './plugin.js';
import { isPodInfo, podInfoOf, type PodInfo } from './pod-info.js';
import { numFeasibleNodesToFind } from './sampling.js';
import type { ClusterSnapshot } from './snapshot.js';
import { isSuccess, messageOf, type Status } from './status.js';

export interface SchedulerOptions {
  /** kube-scheduler's percentageOfNodesToScore; 0 or absent is adaptive (50% → 5%, ≥ 100 nodes). */
  readonly percentageOfNodesToScore?: number;
  /** Score weight per plugin name, overriding the plugin's own default. */
  readonly weights?: Readonly<Record<string, number>>;
  readonly now?: () => number;
  /** Breaks ties between equally scored nodes (reservoir sampling, as kube-scheduler). */
  readonly random?: () => number;
}

export type ScheduleResult = Scheduled | Unschedulable;

export type Scheduled =
  | { readonly node: string; readonly permit: 'allow' }
  /** Assumed and reserved on `node`, held by permit plugins (e.g. a gang not yet complete). */
  | { readonly node: string; readonly permit: 'wait'; readonly timeoutMs: number; readonly waitingOn: readonly string[] };

export interface Unschedulable {
  readonly unschedulable: true;
  /** The FailedScheduling text: `0/3 nodes are available: 2 Insufficient cpu, ...`. */
  readonly message: string;
  readonly reasonsPerNode: Readonly<Record<string, readonly string[]>>;
  /** Retry the pod after this long even if the cluster does not change (a deadline will pass). */
  readonly retryAfterMs?: number;
}

export interface Framework {
  readonly plugins: readonly Plugin[];
  /**
   * The scheduling cycle: on success the pod is assumed on the node in `snapshot`. A
   * `nominatedNode` (where preemption made room for the pod) is tried first and taken if it fits.
   */
  schedulePod(pod: KubeObject | PodInfo, snapshot: ClusterSnapshot, nominatedNode?: string): ScheduleResult;
  /**
   * For preemption: the pod's pre-filters run once, then the returned check runs the filters on
   * one node as it stands (the caller takes pods off it to see whether that makes room).
   * Undefined when a pre-filter rejects the pod: no node could take it whatever is removed.
   */
  nodeCheck(pod: PodInfo, snapshot: ClusterSnapshot): ((node: NodeInfo) => boolean) | undefined;
  /** The binding cycle, after permit allowed: the first bind plugin that does not skip binds. */
  bind(pod: KubeObject, nodeName: string): Promise<void>;
  /** Give a placement up (permit rejected or timed out, binding failed): unreserve and forget. */
  abandon(pod: KubeObject | PodInfo, nodeName: string, snapshot: ClusterSnapshot): void;
}

interface Scorer {
  readonly plugin: Plugin;
  readonly weight: number;
}

interface Stages {
  readonly preFilter: readonly Plugin[];
  readonly filter: readonly Plugin[];
  readonly score: readonly Scorer[];
  readonly reserve: readonly Plugin[];
  readonly permit: readonly Plugin[];
  readonly bind: readonly Plugin[];
}

/** Per-pod working set: each plugin's pre-filter state and which stages it sits out. */
interface Cycle {
  readonly pod: PodInfo;
  readonly states: Map<Plugin, unknown>;
  readonly filters: Plugin[];
  readonly scorers: Scorer[];
  nodeNames: Set<string> | undefined;
  readonly exclusions: Array<{ names: ReadonlySet<string>; reason: string }>;
  retryAfterMs: number | undefined;
}

/**
 * Builds the pipeline once, stage by stage in the order a pod goes through them. Plugins keep
 * the order they are given within a stage: cheap, decisive filters first.
 */
export function buildPipeline(plugins: readonly Plugin[], options: SchedulerOptions = {}): Framework {
  const stages: Stages = {
    // 1. PreFilter — once per pod: parse the pod, reject it outright, or narrow the nodes.
    preFilter: plugins.filter((p) => p.preFilter !== undefined),
    // 2. Filter — per node, until enough feasible nodes are found; the first rejection wins.
    filter: plugins.filter((p) => p.filter !== undefined),
    // 3. Score + NormalizeScore — per feasible node; each plugin's 0–100 score times its weight.
    score: plugins.filter((p) => p.score !== undefined).map((plugin) => ({ plugin, weight: options.weights?.[plugin.name] ?? plugin.weight ?? 1 })),
    // 4. Reserve — the pod is assumed on the chosen node; plugins claim what they track.
    reserve: plugins.filter((p) => p.reserve !== undefined || p.unreserve !== undefined),
    // 5. Permit — allow (Success), reject, or hold the pod (Wait: gang scheduling) before it is bound.
    permit: plugins.filter((p) => p.permit !== undefined),
    // 6. Bind — asynchronous, outside the scheduling cycle: the only stage that does I/O; Skip passes it on.
    bind: plugins.filter((p) => p.bind !== undefined),
  };
  return new Pipeline(plugins, stages, options);
}

class Pipeline implements Framework {
  private nextStartNodeIndex = 0;
  private readonly feasible: NodeInfo[] = [];
  private readonly failed: Failures = { nodes: [], verdicts: [] };
  private totals = new Float64Array(256);
  private scratch = new Float64Array(256);
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(
    readonly plugins: readonly Plugin[],
    private readonly stages: Stages,
    private readonly options: SchedulerOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  schedulePod(pod: KubeObject | PodInfo, snapshot: ClusterSnapshot, nominatedNode?: string): ScheduleResult {
    const info = isPodInfo(pod) ? pod : podInfoOf(pod);
    if (snapshot.nodeCount === 0) {
      return { unschedulable: true, message: 'no nodes available to schedule pods', reasonsPerNode: {} };
    }
    const cycle = this.preFilter(info, { snapshot, now: this.now() });
    if ('unschedulable' in cycle) return cycle;
    // As kube-scheduler's evaluateNominatedNode: the room preemption made is the pod's first choice.
    const nominated = nominatedNode === undefined ? undefined : snapshot.getNode(nominatedNode);
    if (nominated !== undefined && this.passes(cycle, nominated)) return this.reserveAndPermit(info, nominated.name, snapshot);
    const { feasible, failed } = this.findFeasible(cycle, snapshot);
    if (feasible.length === 0) return this.unschedulable(cycle, snapshot, failed);
    const node = feasible.length === 1 ? feasible[0]! : this.selectHost(cycle, feasible);
    return this.reserveAndPermit(info, node.name, snapshot);
  }

  nodeCheck(pod: PodInfo, snapshot: ClusterSnapshot): ((node: NodeInfo) => boolean) | undefined {
    const cycle = this.preFilter(pod, { snapshot, now: this.now() });
    if ('unschedulable' in cycle) return undefined;
    return (node) => this.passes(cycle, node);
  }

  /** Whether one node passes every filter of the cycle (and any pre-filter narrowing). */
  private passes(cycle: Cycle, node: NodeInfo): boolean {
    if (cycle.nodeNames !== undefined && !cycle.nodeNames.has(node.name)) return false;
    for (const plugin of cycle.filters) {
      if (!isSuccess(plugin.filter!(cycle.states.get(plugin), cycle.pod, node))) return false;
    }
    return true;
  }

  async bind(pod: KubeObject, nodeName: string): Promise<void> {
    for (const plugin of this.stages.bind) {
      const status = await plugin.bind!(pod, nodeName);
      if (status.code === 'Skip') continue;
      if (isSuccess(status)) return;
      throw new Error(`${plugin.name}: ${messageOf(status)}`);
    }
    throw new Error(`no bind plugin bound pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`);
  }

  abandon(pod: KubeObject | PodInfo, nodeName: string, snapshot: ClusterSnapshot): void {
    const info = isPodInfo(pod) ? pod : podInfoOf(pod);
    const reserve = this.stages.reserve;
    for (let i = reserve.length - 1; i >= 0; i--) reserve[i]!.unreserve?.(info, nodeName, snapshot);
    snapshot.forget(info);
  }

  private preFilter(pod: PodInfo, ctx: CycleContext): Cycle | Unschedulable {
    const cycle: Cycle = {
      pod,
      states: new Map(),
      filters: [],
      scorers: [],
      nodeNames: undefined,
      exclusions: [],
      retryAfterMs: undefined,
    };
    const skipFilter = new Set<Plugin>();
    const skipScore = new Set<Plugin>();
    for (const plugin of this.stages.preFilter) {
      const result = plugin.preFilter!(pod, ctx);
      if (result.retryAfterMs !== undefined) cycle.retryAfterMs = Math.min(cycle.retryAfterMs ?? Infinity, result.retryAfterMs);
      if (!preFilterPassed(result)) return this.rejected(ctx.snapshot, messageOf(result.status), cycle.retryAfterMs);
      cycle.states.set(plugin, result.state);
      if (result.status.code === 'Skip') skipFilter.add(plugin);
      if (result.skipScore === true) skipScore.add(plugin);
      if (result.nodeNames !== undefined) this.narrow(cycle, plugin, result);
    }
    for (const plugin of this.stages.filter) if (!skipFilter.has(plugin)) cycle.filters.push(plugin);
    for (const scorer of this.stages.score) if (!skipScore.has(scorer.plugin)) cycle.scorers.push(scorer);
    return cycle;
  }

  private narrow(cycle: Cycle, plugin: Plugin, result: PreFilterPass<unknown>): void {
    const names = result.nodeNames!;
    cycle.nodeNames = cycle.nodeNames === undefined ? new Set(names) : new Set([...cycle.nodeNames].filter((n) => names.has(n)));
    cycle.exclusions.push({ names, reason: result.excludedReason ?? `node(s) didn't satisfy plugin ${plugin.name}` });
  }

  private rejected(snapshot: ClusterSnapshot, message: string, retryAfterMs: number | undefined): Unschedulable {
    const reasonsPerNode: Record<string, readonly string[]> = {};
    for (const node of snapshot.nodes) reasonsPerNode[node.name] = [message];
    return withRetry({ unschedulable: true, message: fitErrorMessage(snapshot.nodeCount, reasonsPerNode, message), reasonsPerNode }, retryAfterMs);
  }

  /**
   * Filters nodes starting where the previous pod stopped, so successive pods look at different
   * parts of a big cluster, and stops once numFeasibleNodesToFind nodes passed.
   */
  private findFeasible(cycle: Cycle, snapshot: ClusterSnapshot): { feasible: NodeInfo[]; failed: Failures } {
    const restricted = cycle.nodeNames !== undefined;
    const nodes = restricted ? restrictedNodes(cycle.nodeNames!, snapshot) : snapshot.nodes;
    const total = nodes.length;
    const wanted = restricted ? total : numFeasibleNodesToFind(total, this.options.percentageOfNodesToScore);
    const start = restricted || total === 0 ? 0 : this.nextStartNodeIndex % total;
    // Reused between pods: a fresh 500-entry array per pod was most of the scheduler's garbage.
    const feasible = this.feasible;
    const failed = this.failed;
    feasible.length = 0;
    failed.nodes.length = 0;
    failed.verdicts.length = 0;
    const { filters, pod } = cycle;
    const states = filters.map((plugin) => cycle.states.get(plugin));
    let processed = 0;
    while (processed < total && feasible.length < wanted) {
      const node = nodes[(start + processed) % total]!;
      processed++;
      let verdict: Status | undefined;
      for (let i = 0; i < filters.length && (verdict === undefined || verdict.code === 'Success'); i++) {
        verdict = filters[i]!.filter!(states[i], pod, node);
      }
      if (verdict === undefined || verdict.code === 'Success') feasible.push(node);
      else (failed.nodes.push(node), failed.verdicts.push(verdict));
    }
    if (!restricted && total > 0) this.nextStartNodeIndex = (start + processed) % total;
    return { feasible, failed };
  }

  private unschedulable(cycle: Cycle, snapshot: ClusterSnapshot, failed: Failures): Unschedulable {
    const reasonsPerNode: Record<string, readonly string[]> = {};
    for (let i = 0; i < failed.nodes.length; i++) {
      reasonsPerNode[failed.nodes[i]!.name] = failed.verdicts[i]!.reasons;
    }
    if (cycle.nodeNames !== undefined) {
      for (const node of snapshot.nodes) {
        if (cycle.nodeNames.has(node.name)) continue;
        const exclusion = cycle.exclusions.find((e) => !e.names.has(node.name)) ?? cycle.exclusions[0]!;
        reasonsPerNode[node.name] = [exclusion.reason];
      }
    }
    const message = fitErrorMessage(snapshot.nodeCount, reasonsPerNode);
    return withRetry({ unschedulable: true, message, reasonsPerNode }, cycle.retryAfterMs);
  }

  /** Weighted sum of the normalized scores; ties broken at random as kube-scheduler does. */
  private selectHost(cycle: Cycle, feasible: readonly NodeInfo[]): NodeInfo {
    const n = feasible.length;
    if (this.totals.length < n) {
      this.totals = new Float64Array(n * 2);
      this.scratch = new Float64Array(n * 2);
    }
    const totals = this.totals.subarray(0, n).fill(0);
    const scores = this.scratch.subarray(0, n);
    for (const { plugin, weight } of cycle.scorers) {
      const state = cycle.states.get(plugin);
      for (let i = 0; i < n; i++) scores[i] = plugin.score!(state, cycle.pod, feasible[i]!);
      plugin.normalizeScore?.(state, scores);
      for (let i = 0; i < n; i++) totals[i] = totals[i]! + scores[i]! * weight;
    }
    let best = 0;
    let ties = 1;
    for (let i = 1; i < n; i++) {
      if (totals[i]! > totals[best]!) ((best = i), (ties = 1));
      else if (totals[i] === totals[best] && this.random() * ++ties < 1) best = i;
    }
    return feasible[best]!;
  }

  private reserveAndPermit(pod: PodInfo, nodeName: string, snapshot: ClusterSnapshot): ScheduleResult {
    snapshot.assume(pod, nodeName);
    for (const plugin of this.stages.reserve) {
      const status = plugin.reserve?.(pod, nodeName, snapshot);
      if (!isSuccess(status)) return this.refused(pod, nodeName, snapshot, messageOf(status!));
    }
    const waitingOn: string[] = [];
    let timeoutMs = Infinity;
    for (const plugin of this.stages.permit) {
      const status = plugin.permit!(pod, nodeName, snapshot);
      if (status.code === 'Wait') (waitingOn.push(plugin.name), (timeoutMs = Math.min(timeoutMs, status.timeoutMs ?? Infinity)));
      else if (!isSuccess(status)) return this.refused(pod, nodeName, snapshot, messageOf(status));
    }
    return waitingOn.length === 0 ? { node: nodeName, permit: 'allow' } : { node: nodeName, permit: 'wait', timeoutMs, waitingOn };
  }

  private refused(pod: PodInfo, nodeName: string, snapshot: ClusterSnapshot, message: string): Unschedulable {
    this.abandon(pod, nodeName, snapshot);
    return { unschedulable: true, message, reasonsPerNode: { [nodeName]: [message] } };
  }
}

interface Failures {
  readonly nodes: NodeInfo[];
  readonly verdicts: Status[];
}

function restrictedNodes(names: ReadonlySet<string>, snapshot: ClusterSnapshot): NodeInfo[] {
  const out: NodeInfo[] = [];
  for (const name of names) {
    const node = snapshot.getNode(name);
    if (node !== undefined) out.push(node);
  }
  return out;
}

function withRetry(result: Unschedulable, retryAfterMs: number | undefined): Unschedulable {
  return retryAfterMs === undefined ? result : { ...result, retryAfterMs };
}

// How many replicas a Resource (or ContainerResource) metric asks for, as Kubernetes' HPA
// replica calculator decides it (pkg/controller/podautoscaler/replica_calculator.go):
//   - pods being deleted or Failed are ignored; Pending ones are unready; a pod without a
//     figure is missing; for CPU, a pod is unready while not Ready, or (in its first
//     cpuInitializationPeriod) when its figure was taken before it became Ready;
//   - the ratio of usage to target is taken over the ready pods with figures; within the
//     tolerance (0.1) nothing changes;
//   - with missing pods, or unready ones when scaling up, the ratio is taken again with the
//     missing pods at 100 % of the target (scale down) or 0 (scale up) and the unready at 0, and
//     a change is made only if it still points the same way.
// Values are in milli-units (millicores; bytes × 1000), as Kubernetes' metrics client keeps them.

export const TOLERANCE = 0.1;
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
export const DELAY_OF_INITIAL_READINESS_MS = 30_000;

export interface PodFacts {
  name: string;
  phase: string;
  deleting: boolean;
  /** Ready condition: its status and when it last changed (ms). */
  ready?: { status: string; lastTransition: number };
  /** status.startTime (ms). */
  startTime?: number;
  /** The request of the resource in milli-units, summed over the containers counted; undefined if any lacks one. */
  request?: number;
}

export interface PodFigure {
  /** Usage in milli-units. */
  value: number;
  /** When it was taken (ms) and over how long (ms). */
  timestamp: number;
  windowMs: number;
}

export interface Grouping {
  readyCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

export function groupPods(pods: readonly PodFacts[], figures: ReadonlyMap<string, PodFigure>, isCpu: boolean, now: number): Grouping {
  const grouping: Grouping = { readyCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    if (pod.deleting || pod.phase === 'Failed') {
      grouping.ignored.add(pod.name);
      continue;
    }
    if (pod.phase === 'Pending') {
      grouping.unready.add(pod.name);
      continue;
    }
    const figure = figures.get(pod.name);
    if (!figure) {
      grouping.missing.add(pod.name);
      continue;
    }
    if (isCpu && isUnreadyForCpu(pod, figure, now)) {
      grouping.unready.add(pod.name);
      continue;
    }
    grouping.readyCount++;
  }
  return grouping;
}

function isUnreadyForCpu(pod: PodFacts, figure: PodFigure, now: number): boolean {
  if (!pod.ready || pod.startTime === undefined) return true;
  if (pod.startTime + CPU_INITIALIZATION_PERIOD_MS > now) {
    // Young pods: unready, or measured (partly) before they were ready.
    return pod.ready.status === 'False' || figure.timestamp < pod.ready.lastTransition + figure.windowMs;
  }
  // Older pods count unless unready and never ready since starting.
  return pod.ready.status === 'False' && pod.startTime + DELAY_OF_INITIAL_READINESS_MS > pod.ready.lastTransition;
}

/** How a target compares usage: a percent of requests, or a plain average per pod. */
export type Target = { utilization: number } | { averageValue: number };

export interface Ratio {
  ratio: number;
  /** Percent of requests (utilization targets only). */
  utilization?: number;
  /** Average usage per pod counted, milli-units. */
  average: number;
}

/** The ratio of usage to target over `values` (pod → usage); throws when nothing can be said. */
export function usageRatio(values: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>, target: Target): Ratio {
  if ('averageValue' in target) {
    const total = [...values.values()].reduce((a, b) => a + b, 0);
    const average = total / values.size;
    return { ratio: average / target.averageValue, average };
  }
  let usage = 0;
  let requested = 0;
  let counted = 0;
  for (const [pod, value] of values) {
    const request = requests.get(pod);
    if (request === undefined) continue;
    usage += value;
    requested += request;
    counted++;
  }
  if (requested === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((usage * 100) / requested);
  return { ratio: utilization / target.utilization, utilization, average: usage / counted };
}

export interface Proposal {
  replicas: number;
  /** The figure as status.currentMetrics reports it (from the pods that counted first). */
  utilization?: number;
  average: number;
}

/** GetResourceReplicas / GetRawResourceReplicas. `figures` is every pod figure of the selector's pods. */
export function resourceReplicas(
  currentReplicas: number,
  pods: readonly PodFacts[],
  figures: ReadonlyMap<string, PodFigure>,
  target: Target,
  isCpu: boolean,
  now: number,
): Proposal {
  if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const grouping = groupPods(pods, figures, isCpu, now);
  const values = new Map<string, number>();
  for (const [name, figure] of figures) {
    if (!grouping.ignored.has(name) && !grouping.unready.has(name) && pods.some((p) => p.name === name)) values.set(name, figure.value);
  }
  if (values.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  const requests = new Map<string, number>();
  if ('utilization' in target) {
    for (const pod of pods) {
      if (pod.request === undefined) throw new Error(`missing request for ${isCpu ? 'cpu' : 'the resource'} in pod ${pod.name}`);
      requests.set(pod.name, pod.request);
    }
  }
  const first = usageRatio(values, requests, target);
  const proposal = (replicas: number): Proposal => ({
    replicas,
    average: first.average,
    ...(first.utilization === undefined ? {} : { utilization: first.utilization }),
  });
  const scaleUpWithUnready = grouping.unready.size > 0 && first.ratio > 1;
  if (!scaleUpWithUnready && grouping.missing.size === 0) {
    if (Math.abs(1 - first.ratio) <= TOLERANCE) return proposal(currentReplicas);
    return proposal(Math.ceil(first.ratio * grouping.readyCount));
  }
  if (grouping.missing.size > 0) {
    for (const name of grouping.missing) {
      if (first.ratio < 1) {
        // Scaling down: a pod without figures counts as using all of its target.
        values.set(name, 'utilization' in target ? ((requests.get(name) ?? 0) * Math.max(100, target.utilization)) / 100 : target.averageValue);
      } else if (first.ratio > 1) {
        values.set(name, 0);
      }
    }
  }
  if (scaleUpWithUnready) for (const name of grouping.unready) values.set(name, 0);
  const second = usageRatio(values, requests, target);
  if (Math.abs(1 - second.ratio) <= TOLERANCE || (first.ratio < 1 && second.ratio > 1) || (first.ratio > 1 && second.ratio < 1)) {
    return proposal(currentReplicas);
  }
  const replicas = Math.ceil(second.ratio * values.size);
  if ((second.ratio < 1 && replicas > currentReplicas) || (second.ratio > 1 && replicas < currentReplicas)) return proposal(currentReplicas);
  return proposal(replicas);
}

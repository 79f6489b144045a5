// The heart of kube-scheduler's DefaultPreemption, without I/O: which pods would have to go
// from a node for the preemptor to fit there, and which candidate node to take.
//
// On one node (SelectVictimsOnNode): take every pod the preemptor may preempt off the node; if
// it still does not fit, the node cannot help. Otherwise give the pods back one by one, most
// important first (those whose removal would break a disruption budget before the others), and
// keep back each one the preemptor still fits beside: whatever could not be given back is the
// victim set, as small and as unimportant as this greedy pass finds.
import { podPriority } from '../../api/scheduling/priority.js';
import type { NodeInfo } from '../node-info.js';
import type { PodInfo } from '../pod-info.js';
import { splitByBudgetViolation, type DisruptionBudget } from './budgets.js';
import type { Pod } from '../../api/core/index.js';

export interface Candidate {
  readonly node: string;
  /** The pods to delete, most important first. */
  readonly victims: readonly PodInfo[];
  /** How many of them break a PodDisruptionBudget. */
  readonly budgetViolations: number;
}

export interface VictimSearch {
  /** Whether the preemptor passes every filter on the node as it stands at the moment. */
  fits(node: NodeInfo): boolean;
  /** Pods the preemptor may take off a node (lower priority, not its own gang, not merely assumed). */
  mayPreempt(pod: PodInfo): boolean;
  /** Pods already being deleted: they leave anyway, so they free room without being victims. */
  leaving(pod: PodInfo): boolean;
  budgets: readonly DisruptionBudget[];
}

/** The victims on one node, or undefined when even removing every eligible pod leaves no room. */
export function selectVictimsOnNode(node: NodeInfo, search: VictimSearch): Candidate | undefined {
  const leaving: PodInfo[] = [];
  const eligible: PodInfo[] = [];
  for (const pod of node.pods.values()) {
    if (search.leaving(pod)) leaving.push(pod);
    else if (search.mayPreempt(pod)) eligible.push(pod);
  }
  // Nothing would leave: the node is as the scheduling cycle just found it, where the pod did not fit.
  if (leaving.length === 0 && eligible.length === 0) return undefined;
  for (const pod of leaving) node.removePod(pod);
  for (const pod of eligible) node.removePod(pod);
  try {
    if (!search.fits(node)) {
      for (const pod of eligible) node.addPod(pod);
      return undefined;
    }
    eligible.sort(moreImportantFirst);
    const { violating, safe } = splitByBudgetViolation(eligible, search.budgets);
    const victims: PodInfo[] = [];
    let budgetViolations = 0;
    const reprieve = (pod: PodInfo, breaksBudget: boolean) => {
      node.addPod(pod);
      if (search.fits(node)) return;
      node.removePod(pod);
      victims.push(pod);
      if (breaksBudget) budgetViolations++;
    };
    for (const pod of violating) reprieve(pod, true);
    for (const pod of safe) reprieve(pod, false);
    // Victims are put back too: this was a simulation, the snapshot must stay as it was.
    for (const pod of victims) node.addPod(pod);
    victims.sort(moreImportantFirst);
    return { node: node.name, victims, budgetViolations };
  } finally {
    for (const pod of leaving) node.addPod(pod);
  }
}

/**
 * kube-scheduler's pickOneNodeForPreemption: fewest budget violations, then the lowest most
 * important victim, the smallest sum of victim priorities, the fewest victims, and the latest
 * start among the most important victims (they have done the least work); then the first.
 */
export function pickCandidate(candidates: readonly Candidate[]): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of candidates) if (best === undefined || better(candidate, best)) best = candidate;
  return best;
}

function better(a: Candidate, b: Candidate): boolean {
  if (a.victims.length === 0 || b.victims.length === 0) return a.victims.length < b.victims.length;
  const criteria: Array<(c: Candidate) => number> = [
    (c) => -c.budgetViolations,
    (c) => -podPriority(c.victims[0]!.pod),
    // Offset as Kubernetes does, so negative priorities cannot make a longer list look cheaper.
    (c) => -c.victims.reduce((sum, v) => sum + podPriority(v.pod) + 2 ** 31, 0),
    (c) => -c.victims.length,
    (c) => earliestStartOfTopVictims(c),
  ];
  for (const criterion of criteria) {
    const x = criterion(a);
    const y = criterion(b);
    if (x !== y) return x > y;
  }
  return false;
}

function earliestStartOfTopVictims(c: Candidate): number {
  const top = podPriority(c.victims[0]!.pod);
  let earliest = Infinity;
  for (const victim of c.victims) if (podPriority(victim.pod) === top) earliest = Math.min(earliest, startTime(victim));
  return earliest;
}

/** kube-scheduler's MoreImportantPod: higher priority first, then the one that started earlier. */
export function moreImportantFirst(a: PodInfo, b: PodInfo): number {
  const byPriority = podPriority(b.pod) - podPriority(a.pod);
  return byPriority !== 0 ? byPriority : startTime(a) - startTime(b);
}

function startTime(pod: PodInfo): number {
  const status = (pod.pod as Pod).status;
  const started = Date.parse(typeof status?.startTime === 'string' ? status.startTime : (pod.pod.metadata.creationTimestamp ?? ''));
  return Number.isFinite(started) ? started : Date.now();
}

// Which pods a running Job must create or delete (manageJob): no more than `parallelism` active,
// no more than the completions still missing, and for Indexed jobs one pod per pending index —
// pods of duplicate, out-of-range or already succeeded indexes are deleted first. Pure: the
// controller carries it out (shape/pass.ts).
import type { Changes } from '../shape/pass.js';
import { completionIndexOf, type Job } from './types.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import type { Pod } from '../../api/core/index.js';

/** Kubernetes' MaxPodCreateDeletePerSync. */
export const MAX_POD_CHANGES_PER_PASS = 500;

export interface ManageInput {
  job: Readonly<Job>;
  active: readonly Readonly<Pod>[];
  /** Succeeded pods so far (for Indexed jobs: succeeded indexes). */
  succeeded: number;
  succeededIndexes: ReadonlySet<number>;
}

export interface ManagePlan {
  deletions: Readonly<Pod>[];
  /** One entry per pod to create: its completion index, or undefined for NonIndexed jobs. */
  creations: Array<number | undefined>;
}

export function planPods(input: ManageInput): ManagePlan {
  const { job, active } = input;
  const parallelism = Math.max(0, job.spec.parallelism ?? 1);
  const completions = job.spec.completions ?? undefined;
  const indexed = job.spec.completionMode === 'Indexed' && completions !== undefined;

  const deletions: Readonly<Pod>[] = indexed ? badIndexPods(active, completions, input.succeededIndexes) : [];
  const doomed = new Set(deletions);
  const keep = active.filter((p) => !doomed.has(p));
  const excess = keep.length - parallelism;
  if (excess > 0) deletions.push(...[...keep].sort(removalOrder).slice(0, excess));
  if (deletions.length > 0) return { deletions: deletions.slice(0, MAX_POD_CHANGES_PER_PASS), creations: [] };

  let wantActive: number;
  if (completions === undefined) wantActive = input.succeeded > 0 ? active.length : parallelism;
  else wantActive = Math.max(0, Math.min(parallelism, completions - input.succeeded));
  const diff = Math.min(wantActive - active.length, MAX_POD_CHANGES_PER_PASS);
  if (diff <= 0) return { deletions: [], creations: [] };
  if (!indexed) return { deletions: [], creations: Array.from({ length: diff }, () => undefined) };
  const taken = new Set<number>(input.succeededIndexes);
  for (const pod of active) {
    const index = completionIndexOf(pod);
    if (index !== undefined) taken.add(index);
  }
  const creations: number[] = [];
  for (let i = 0; i < completions && creations.length < diff; i++) if (!taken.has(i)) creations.push(i);
  return { deletions: [], creations };
}

/** Active pods of an Indexed job that must go: no valid index, an index already done, or a second pod for one index. */
function badIndexPods(active: readonly Readonly<Pod>[], completions: number, succeeded: ReadonlySet<number>): Readonly<Pod>[] {
  const out: Readonly<Pod>[] = [];
  const byIndex = new Map<number, Readonly<Pod>[]>();
  for (const pod of active) {
    const index = completionIndexOf(pod);
    if (index === undefined || index >= completions || succeeded.has(index)) {
      out.push(pod);
      continue;
    }
    const list = byIndex.get(index);
    if (list) list.push(pod);
    else byIndex.set(index, [pod]);
  }
  for (const pods of byIndex.values()) {
    if (pods.length > 1) out.push(...[...pods].sort(removalOrder).slice(0, pods.length - 1));
  }
  return out;
}

export interface JobPassInput extends ManageInput {
  /** The Job has finished, or finishes in this pass: its pods are run out. */
  ending: boolean;
  suspended: boolean;
  /** How long the failure back-off still holds new pods back (0: not at all). */
  backoffMs: number;
}

export interface JobPodPlan extends Changes<number | undefined, Pod> {
  /**
   * Remove the tracking finalizer before deleting: pods the controller deletes on its own account
   * (suspend, lower parallelism) do not count as failures. An ending Job's pods keep it, so that
   * their outcome is recorded.
   */
  release: boolean;
  /** Creations held back by the failure back-off: look again after this long. */
  retryAfterMs?: number;
}

/** What a pass does with a Job's pods: run out an ending Job's, remove a suspended one's, else planPods within the back-off. */
export function planJobPods(input: JobPassInput): JobPodPlan {
  if (input.ending) return { creations: [], deletions: input.active, release: false };
  if (input.suspended) return { creations: [], deletions: input.active, release: true };
  const plan = planPods(input);
  if (plan.creations.length > 0 && input.backoffMs > 0) return { creations: [], deletions: [], release: true, retryAfterMs: input.backoffMs };
  return { ...plan, release: true };
}

/** Cheapest to lose first (controller.ActivePods): unscheduled, pending, not ready, newest. */
export function removalOrder(a: Readonly<Pod>, b: Readonly<Pod>): number {
  const scheduled = (p: Readonly<Pod>) => (p.spec['nodeName'] ? 1 : 0);
  const phase = (p: Readonly<Pod>) => (p.status?.phase === 'Pending' ? 0 : p.status?.phase === 'Running' ? 2 : 1);
  const ready = (p: Readonly<Pod>) => (isPodReady(p) ? 1 : 0);
  const created = (p: Readonly<Pod>) => Date.parse(p.metadata.creationTimestamp ?? '') || 0;
  return scheduled(a) - scheduled(b) || phase(a) - phase(b) || ready(a) - ready(b) || created(b) - created(a);
}

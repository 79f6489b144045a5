// The framework interface of the training-job controller (Kubeflow's ControllerInterface): one
// generic core (training-sync.ts) runs every kind of training job; a framework says only what
// differs — its API facts (replica-spec field, types, container, port), which replica leads,
// the environment that tells a replica about the others, and when the job has succeeded.
import type { ResourceRef } from '../../client/index.js';
import type { TrainingFramework } from '../../api/training-frameworks.js';
import type { TrainingJob } from './types.js';
import type { Container, PodTemplateSpec } from '../../api/core/index.js';

/** What the pods of one replica type are doing, as a pass counted them. */
export interface ReplicaCounts {
  expected: number;
  /** Pending or Running, not being deleted. */
  active: number;
  running: number;
  succeeded: number;
  failed: number;
  succeededIndexes: ReadonlySet<number>;
}

export type CountsByType = Readonly<Record<string, ReplicaCounts>>;

export interface FrameworkController {
  readonly framework: TrainingFramework;
  readonly resource: ResourceRef;
  /** Master/Chief: gets the job-role=master label. */
  isMasterRole(job: Readonly<TrainingJob>, type: string): boolean;
  /** Adds the variables that tell the replica about the others to the template (a copy). */
  setClusterSpec(job: Readonly<TrainingJob>, template: PodTemplateSpec, type: string, index: number): void;
  /** The job has succeeded, by the framework's success rule. */
  succeeded(job: Readonly<TrainingJob>, counts: CountsByType): boolean;
  /** Failures of this replica type do not fail the job (TFJob with enableDynamicWorker: workers). */
  ignoresFailures(job: Readonly<TrainingJob>, type: string): boolean;
  /** The job counts as Running. */
  running(job: Readonly<TrainingJob>, counts: CountsByType): boolean;
}

/** Sets variables on a container, replacing earlier definitions of the same names (ours win, as Kubeflow's appended ones do). */
export function setEnv(container: Container, vars: ReadonlyArray<[string, string]>): void {
  const names = new Set(vars.map(([name]) => name));
  container.env = [...(container.env ?? []).filter((e) => !names.has(e.name)), ...vars.map(([name, value]) => ({ name, value }))];
}

/** The leader's state decides: running when it runs; without a leader, when any worker runs. */
export function leaderOrWorkerRunning(counts: CountsByType, leaders: readonly string[]): boolean {
  const leader = leaders.find((t) => counts[t] !== undefined);
  if (leader) return (counts[leader]?.running ?? 0) > 0;
  return (counts['Worker']?.running ?? 0) > 0;
}

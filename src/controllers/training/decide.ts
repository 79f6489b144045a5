// What one pass over a training job decides, from the job and its pods alone (no I/O, so every
// rule has a unit test): which failed pods are recreated and which fail the job, how many
// restarts that adds to the backoff count, whether the job ends (a permanent failure,
// backoffLimit, activeDeadlineSeconds, the framework's success rule) and which replicas are
// missing. Kubeflow bugs not copied: ExitCode 1-127 fails the job at once instead of leaving it
// Restarting (kubeflow/trainer#2044); every recreation counts against backoffLimit, not only the
// restartCount of running pods, which a recreated pod resets (#2045).
import type { FrameworkController, ReplicaCounts } from './framework.js';
import { replicaSpecsOf, replicasOf } from './names.js';
import type { ReplicaRestartPolicy, TrainingJob } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface PodFacts {
  pod: Readonly<Pod>;
  type: string;
  index: number;
  /** Container restarts in place not yet counted against backoffLimit. */
  newRestarts: number;
  /** This pod's failure was counted already (its recreation is under way). */
  failureCounted: boolean;
}

export interface Finish {
  type: 'Succeeded' | 'Failed';
  reason: string;
  message: string;
}

export interface Decision {
  counts: Record<string, ReplicaCounts>;
  /** Restarts to add to status.restarts. */
  newRestarts: number;
  /** Pods to delete so that they are created afresh (a retryable failure, or the whole gang). */
  recreate: Readonly<Pod>[];
  /** Why the job restarts (Restarting condition), when it does. */
  restarting?: string;
  gang: boolean;
  create: Array<{ type: string; index: number }>;
  /** Pods beyond the replica count. */
  excess: Readonly<Pod>[];
  finish?: Finish;
  running: boolean;
  /** Pod uids whose failure this decision counted. */
  countedFailures: string[];
}

export interface DecideInput {
  fc: FrameworkController;
  job: Readonly<TrainingJob>;
  pods: readonly PodFacts[];
  nowMs: number;
}

/** Exit codes 128-255 (killed by a signal: OOM, preemption) are worth a retry; 1-127 are the program's own verdict. */
export function isRetryableExitCode(code: number): boolean {
  return code >= 128;
}

/** The exit code of the framework's container, else of any container that failed. */
export function exitCodeOf(fc: FrameworkController, pod: Readonly<Pod>): number | undefined {
  const statuses = pod.status?.containerStatuses ?? [];
  const own = statuses.find((s) => s.name === fc.framework.containerName)?.state?.terminated?.exitCode;
  if (own !== undefined) return own;
  return statuses.map((s) => s.state?.terminated?.exitCode).find((c) => c !== undefined && c !== 0);
}

function restartPolicyOf(fc: FrameworkController, job: Readonly<TrainingJob>, type: string): ReplicaRestartPolicy {
  const spec = replicaSpecsOf(fc.framework, job).find(([t]) => t === type)?.[1];
  return spec?.restartPolicy ?? fc.framework.defaultRestartPolicy;
}

export function countPods(fc: FrameworkController, job: Readonly<TrainingJob>, pods: readonly PodFacts[]): Record<string, ReplicaCounts> {
  const counts: Record<string, ReplicaCounts> = {};
  for (const [type, spec] of replicaSpecsOf(fc.framework, job)) {
    counts[type] = { expected: replicasOf(spec), active: 0, running: 0, succeeded: 0, failed: 0, succeededIndexes: new Set() };
  }
  for (const { pod, type, index } of pods) {
    const c = counts[type];
    if (!c || index >= c.expected) continue;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded') {
      c.succeeded++;
      (c.succeededIndexes as Set<number>).add(index);
    } else if (phase === 'Failed') c.failed++;
    else if (!pod.metadata.deletionTimestamp) {
      c.active++;
      if (phase === 'Running') c.running++;
    }
  }
  return counts;
}

interface Failures {
  retryable: PodFacts[];
  /** Failed pods whose recreation was counted already but which are still here (their deletion failed): deleted again, not counted again. */
  counted: PodFacts[];
  permanent: Array<{ facts: PodFacts; exitCode: number | undefined }>;
}

function classifyFailures(input: DecideInput): Failures {
  const { fc, job } = input;
  const out: Failures = { retryable: [], counted: [], permanent: [] };
  for (const facts of input.pods) {
    const { pod, type } = facts;
    if (pod.status?.phase !== 'Failed' || pod.metadata.deletionTimestamp) continue;
    if (facts.failureCounted) {
      out.counted.push(facts);
      continue;
    }
    if (fc.ignoresFailures(job, type)) continue;
    const policy = restartPolicyOf(fc, job, type);
    const exitCode = exitCodeOf(fc, pod);
    const retryable = policy === 'ExitCode' ? exitCode !== undefined && isRetryableExitCode(exitCode) : policy === 'OnFailure' || policy === 'Always';
    if (retryable) out.retryable.push(facts);
    else out.permanent.push({ facts, exitCode });
  }
  return out;
}

function failed(fc: FrameworkController, job: Readonly<TrainingJob>, message: string): Finish {
  return {
    type: 'Failed',
    reason: `${fc.framework.kind}Failed`,
    message: `${fc.framework.kind} ${job.metadata.namespace}/${job.metadata.name} has failed because ${message}`,
  };
}

function permanentMessage(permanent: Failures['permanent']): string {
  const first = permanent[0]!;
  const code = first.exitCode === undefined ? '' : ` with exit code ${first.exitCode}`;
  return `${permanent.length} replica(s) failed: ${first.facts.pod.metadata.name} exited${code}`;
}

function missing(input: DecideInput, counts: Record<string, ReplicaCounts>): Array<{ type: string; index: number }> {
  const present = new Set(input.pods.map((p) => `${p.type}/${p.index}`));
  const out: Array<{ type: string; index: number }> = [];
  for (const [type, c] of Object.entries(counts)) {
    for (let index = 0; index < c.expected; index++) if (!present.has(`${type}/${index}`)) out.push({ type, index });
  }
  return out;
}

/** A failed pod that may be retried: recreate it (or the gang), unless that passes backoffLimit. */
function retry(input: DecideInput, failures: Failures, before: number, decision: Decision): void {
  const { fc, job } = input;
  const gang = job.spec.runPolicy?.restartScope === 'Gang';
  const limit = job.spec.runPolicy?.backoffLimit;
  // A gang restart is one restart, however many members failed with it.
  const added = gang ? 1 : failures.retryable.length;
  if (limit !== undefined && before + added > limit) {
    decision.finish = failed(fc, job, 'it has reached the specified backoff limit');
    return;
  }
  const names = failures.retryable.map((f) => f.pod.metadata.name).join(', ');
  decision.newRestarts += added;
  decision.countedFailures = failures.retryable.map((f) => f.pod.metadata.uid!);
  decision.gang = gang;
  decision.recreate = gang ? input.pods.filter((p) => !p.pod.metadata.deletionTimestamp).map((p) => p.pod) : failures.retryable.map((f) => f.pod);
  decision.restarting = gang ? `restarting the whole gang: ${names} failed` : `recreating failed pod(s): ${names}`;
}

/** backoffLimit (in-place restarts alone may pass it), then activeDeadlineSeconds, then success. */
function finishRules(input: DecideInput, before: number, decision: Decision): Finish | undefined {
  const { fc, job, nowMs } = input;
  const runPolicy = job.spec.runPolicy ?? {};
  if (runPolicy.backoffLimit !== undefined && before > runPolicy.backoffLimit) return failed(fc, job, 'it has reached the specified backoff limit');
  const deadline = runPolicy.activeDeadlineSeconds;
  const start = Date.parse(job.status?.startTime ?? '');
  if (deadline !== undefined && Number.isFinite(start) && nowMs - start >= deadline * 1000)
    return failed(fc, job, 'it was active longer than the specified deadline');
  if (decision.restarting || decision.recreate.length > 0 || !fc.succeeded(job, decision.counts)) return undefined;
  return {
    type: 'Succeeded',
    reason: `${fc.framework.kind}Succeeded`,
    message: `${fc.framework.kind} ${job.metadata.namespace}/${job.metadata.name} is successfully completed.`,
  };
}

export function decide(input: DecideInput): Decision {
  const { fc, job } = input;
  const counts = countPods(fc, job, input.pods);
  const inPlace = input.pods.reduce((sum, p) => sum + p.newRestarts, 0);
  const before = (job.status?.restarts ?? 0) + inPlace;
  const decision: Decision = {
    counts,
    newRestarts: inPlace,
    recreate: [],
    gang: false,
    create: [],
    running: false,
    countedFailures: [],
    excess: input.pods.filter((p) => p.index >= (counts[p.type]?.expected ?? 0)).map((p) => p.pod),
  };
  const failures = classifyFailures(input);
  if (failures.permanent.length > 0) decision.finish = failed(fc, job, permanentMessage(failures.permanent));
  else if (failures.retryable.length > 0) retry(input, failures, before, decision);
  if (decision.recreate.length === 0 && failures.counted.length > 0) {
    decision.gang = job.spec.runPolicy?.restartScope === 'Gang';
    decision.recreate = decision.gang ? input.pods.filter((p) => !p.pod.metadata.deletionTimestamp).map((p) => p.pod) : failures.counted.map((f) => f.pod);
  }
  decision.finish ??= finishRules(input, before, decision);
  if (decision.finish) {
    // An ending job recreates nothing.
    const { restarting: _dropped, ...rest } = decision;
    return { ...rest, recreate: [], gang: false };
  }
  if (!decision.gang) decision.create = missing(input, counts);
  decision.running = !decision.restarting && decision.recreate.length === 0 && fc.running(job, counts);
  return decision;
}

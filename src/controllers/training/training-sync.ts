// One pass over one training job: conditions Created/Suspended, the PodGroup, the decision of
// decide.ts carried out (recreations, gang restarts, missing pods and services, the end of the
// job with its cleanPodPolicy), replica statuses, the status write and events. Its
// Transactions are read from the status written (training-transactions.ts).
import type { KubeObject } from '../../api/meta.js';
import { metaTime } from '../../api/meta.js';
import { canonicalReplicaType } from '../../api/training-frameworks.js';
import type { ApiClient, EventRecorder, Expectations, ReconcileResult } from '../../client/index.js';
import type { WrittenStatus } from '../job/written-status.js';
import { finishedCondition, hasCondition, restartingMessage, setCondition } from './conditions.js';
import { countPods, decide, exitCodeOf, type Decision, type PodFacts } from './decide.js';
import type { FrameworkController } from './framework.js';
import { cleanUp, deleteEverything, expireAfterFinished, writeStatus } from './job-ending.js';
import { replicaName, replicaSpecsOf, replicasOf, replicaTypeLabels, selectorString } from './names.js';
import { ensurePodGroup } from './pod-group.js';
import { expectationKey, type ReplicaActions } from './replica-actions.js';
import type { RestartLedger } from './restart-ledger.js';
import { LABEL_REPLICA_INDEX, LABEL_REPLICA_TYPE, type ReplicaStatus, type TrainingJob, type TrainingJobStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface TrainingDeps {
  api: ApiClient;
  recorder: EventRecorder;
  expectations: Expectations;
  actions: ReplicaActions;
  ledger: RestartLedger;
  written: WrittenStatus<TrainingJob>;
}

/** What the informers show of the job's objects. */
export interface Observed {
  pods: readonly Readonly<Pod>[];
  services: readonly Readonly<KubeObject>[];
  podGroup: Readonly<KubeObject> | undefined;
}

export function syncTrainingJob(deps: TrainingDeps, fc: FrameworkController, job: Readonly<TrainingJob>, observed: Observed): Promise<ReconcileResult | void> {
  return new Pass(deps, fc, job, observed).run();
}

/** A pod's replica type (canonical) and index, from its labels. */
export function replicaOf(fc: FrameworkController, object: Readonly<KubeObject>): { type: string; index: number } | undefined {
  const type = canonicalReplicaType(fc.framework, object.metadata.labels?.[LABEL_REPLICA_TYPE] ?? '');
  const index = object.metadata.labels?.[LABEL_REPLICA_INDEX] ?? '';
  return type && /^\d+$/.test(index) ? { type, index: Number(index) } : undefined;
}

class Pass {
  private readonly now = new Date();
  private readonly status: TrainingJobStatus;
  private readonly errors: unknown[] = [];
  private readonly kind: string;
  private current: Readonly<TrainingJob>;
  /** Pod failures this pass counted: the ledger learns them (and the restarts seen) once a status write carries them. */
  private countedFailures: string[] | undefined;

  constructor(
    private readonly deps: TrainingDeps,
    private readonly fc: FrameworkController,
    private readonly job: Readonly<TrainingJob>,
    private readonly observed: Observed,
  ) {
    this.status = structuredClone(job.status ?? {});
    this.current = job;
    this.kind = fc.framework.kind;
  }

  private get name(): string {
    return `${this.job.metadata.namespace}/${this.job.metadata.name}`;
  }

  async run(): Promise<ReconcileResult | void> {
    if (finishedCondition(this.job)) return this.finished();
    if (!hasCondition(this.status, 'Created')) setCondition(this.status, 'Created', `${this.kind}Created`, `${this.kind} ${this.name} is created.`, this.now);
    if (this.job.spec.runPolicy?.suspend === true) return this.suspend();
    this.resumeOrStart();
    if (!this.satisfied()) return this.write();
    await ensurePodGroup(this.deps.api, this.fc, this.job, this.observed.podGroup);
    const facts = this.facts();
    const decision = decide({ fc: this.fc, job: { ...this.job, status: this.status }, pods: facts, nowMs: this.now.getTime() });
    if (decision.newRestarts > 0) this.status.restarts = (this.status.restarts ?? 0) + decision.newRestarts;
    this.countedFailures = decision.countedFailures;
    this.status.replicaStatuses = this.replicaStatuses(decision);
    if (decision.finish) await this.finish(decision);
    else await this.advance(decision);
    const result = await this.write();
    if (this.errors.length > 0)
      throw new AggregateError(
        this.errors,
        `${this.errors.length} write(s) for ${this.name} failed: ${String((this.errors[0] as Error)?.message ?? this.errors[0])}`,
      );
    return result;
  }

  private satisfied(): boolean {
    const uid = this.job.metadata.uid!;
    return replicaSpecsOf(this.fc.framework, this.job).every(
      ([type]) =>
        this.deps.expectations.satisfied(expectationKey(uid, type, 'pods')) && this.deps.expectations.satisfied(expectationKey(uid, type, 'services')),
    );
  }

  private facts(): PodFacts[] {
    const out: PodFacts[] = [];
    for (const pod of this.observed.pods) {
      const replica = replicaOf(this.fc, pod);
      if (!replica) continue;
      out.push({ pod, ...replica, newRestarts: this.deps.ledger.newRestarts(pod), failureCounted: this.deps.ledger.failureCounted(pod) });
    }
    return out;
  }

  /** Resuming resets startTime (activeDeadlineSeconds counts from there), as Kubeflow does. */
  private resumeOrStart(): void {
    if (hasCondition(this.status, 'Suspended')) {
      setCondition(this.status, 'Suspended', `${this.kind}Resumed`, `${this.kind} ${this.name} is resumed.`, this.now, 'False');
      void this.deps.recorder.record(this.job, 'Normal', `${this.kind}Resumed`, `${this.kind} ${this.name} is resumed.`);
      delete this.status.startTime;
    }
    this.status.startTime ??= metaTime(this.now);
  }

  /** Suspended: no pods, no services, no PodGroup; the job waits with condition Suspended. */
  private async suspend(): Promise<ReconcileResult | void> {
    if (!hasCondition(this.status, 'Suspended')) {
      setCondition(this.status, 'Suspended', `${this.kind}Suspended`, `${this.kind} ${this.name} is suspended.`, this.now);
      void this.deps.recorder.record(this.job, 'Normal', `${this.kind}Suspended`, `${this.kind} ${this.name} is suspended.`);
    }
    if (hasCondition(this.status, 'Running'))
      setCondition(this.status, 'Running', `${this.kind}Suspended`, `${this.kind} ${this.name} is suspended.`, this.now, 'False');
    delete this.status.startTime;
    if (this.satisfied()) this.errors.push(...(await deleteEverything(this.deps, this.job, this.observed)));
    this.status.replicaStatuses = this.replicaStatuses(undefined);
    const result = await this.write();
    if (this.errors.length > 0) throw new AggregateError(this.errors, `suspending ${this.name} failed`);
    return result;
  }

  /** A job that is running: recreate what failed (the restarts are written first), create what is missing. */
  private async advance(d: Decision): Promise<void> {
    const { deps, fc, job } = this;
    if (d.restarting) {
      const message = restartingMessage(this.kind, job, d.restarting);
      setCondition(this.status, 'Restarting', `${this.kind}Restarting`, message, this.now);
      void deps.recorder.record(job, 'Warning', `${this.kind}Restarting`, message);
      for (const pod of d.recreate) {
        const code = exitCodeOf(fc, pod);
        if (pod.status?.phase === 'Failed' && code !== undefined)
          void deps.recorder.record(job, 'Normal', 'ExitedWithCode', `Pod: ${pod.metadata.namespace}.${pod.metadata.name} exited with code ${code}`);
      }
      await this.write(); // the restart is counted before the pods go
    }
    const doomed = [...d.recreate, ...d.excess.filter((p) => !d.recreate.includes(p))].filter((p) => !p.metadata.deletionTimestamp);
    const excessServices = this.observed.services.filter((s) => {
      const r = replicaOf(fc, s);
      return !r || r.index >= (d.counts[r.type]?.expected ?? 0);
    });
    this.errors.push(...(await deps.actions.carryOut(fc, job, 'pods', { creations: d.create, deletions: doomed })).errors);
    this.errors.push(...(await deps.actions.carryOut(fc, job, 'services', { creations: this.missingServices(), deletions: excessServices })).errors);
    if (d.running) setCondition(this.status, 'Running', `${this.kind}Running`, `${this.kind} ${this.name} is running.`, this.now);
  }

  private missingServices(): Array<{ type: string; index: number }> {
    const present = new Set(this.observed.services.map((s) => s.metadata.name));
    const out: Array<{ type: string; index: number }> = [];
    for (const [type, spec] of replicaSpecsOf(this.fc.framework, this.job)) {
      for (let index = 0; index < replicasOf(spec); index++) if (!present.has(replicaName(this.job.metadata.name!, type, index))) out.push({ type, index });
    }
    return out;
  }

  /** The job ends now: condition, completionTime, the status written, then cleanPodPolicy and the PodGroup. */
  private async finish(d: Decision): Promise<void> {
    const { deps, job } = this;
    const finish = d.finish!;
    setCondition(this.status, finish.type, finish.reason, finish.message, this.now);
    this.status.completionTime = metaTime(this.now);
    void deps.recorder.record(job, finish.type === 'Succeeded' ? 'Normal' : 'Warning', finish.reason, finish.message);
    await this.write();
    this.errors.push(...(await cleanUp(deps, job, this.observed)));
  }

  /** Every pass over a finished job applies its cleanPodPolicy again (pods may have been pending) and its TTL. */
  private async finished(): Promise<ReconcileResult | void> {
    const errors = await cleanUp(this.deps, this.job, this.observed);
    // Pods left by cleanPodPolicy Running/None go on finishing: their counts stay current.
    this.status.replicaStatuses = this.replicaStatuses({ counts: countPods(this.fc, this.job, this.facts()) } as Pick<Decision, 'counts'>);
    await writeStatus(this.deps, this.fc, this.job, this.status, this.now);
    if (errors.length > 0) throw new AggregateError(errors, `cleaning up ${this.name} failed`);
    const ttl = await expireAfterFinished(this.deps.api, this.fc, this.job, this.now.getTime());
    return ttl === undefined || ttl === 'deleted' ? undefined : { requeueAfterMs: Math.max(0, Math.ceil(ttl)) + 10 };
  }

  private replicaStatuses(d: Pick<Decision, 'counts'> | undefined): Record<string, ReplicaStatus> {
    const out: Record<string, ReplicaStatus> = {};
    for (const [type] of replicaSpecsOf(this.fc.framework, this.job)) {
      const c = d?.counts[type];
      const labels = replicaTypeLabels(this.fc.framework, this.job, type);
      out[type] = {
        active: c?.active ?? 0,
        succeeded: c?.succeeded ?? 0,
        failed: c?.failed ?? 0,
        labelSelector: { matchLabels: labels },
        selector: selectorString(labels),
      };
    }
    return out;
  }

  /** Writes the status when it changed; asks for another look at the deadline or the TTL. */
  private async write(): Promise<ReconcileResult | void> {
    this.current = await writeStatus(this.deps, this.fc, this.current, this.status, this.now);
    if (this.countedFailures) this.deps.ledger.commit(this.observed.pods, this.countedFailures);
    const deadline = this.job.spec.runPolicy?.activeDeadlineSeconds;
    const start = Date.parse(this.status.startTime ?? '');
    if (deadline === undefined || !Number.isFinite(start) || finishedCondition(this.current)) {
      return finishedCondition(this.current) ? { requeueAfterMs: 0 } : undefined;
    }
    return { requeueAfterMs: Math.max(0, start + deadline * 1000 - this.now.getTime()) + 10 };
  }
}

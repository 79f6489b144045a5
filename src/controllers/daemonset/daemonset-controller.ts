// The DaemonSet controller (`daemonset-controller`), after kube-controller-manager's: one pod on
// every eligible node. A pass over one DaemonSet (1) creates pods on eligible nodes without
// one and deletes pods from nodes that stopped being eligible, failed pods and extras
// (manage.ts); (2) when nothing had to change, advances a RollingUpdate (rolling-update.ts);
// (3) writes the status `kubectl rollout status` reads; (4) records the Transactions of its rolling
// steps and reschedules (its launch is observed from that status: daemonset-launch.ts). Before
// all that it records the template as a ControllerRevision (rollout history and undo) and
// afterwards prunes the revisions beyond revisionHistoryLimit that no pod uses.
import { Expectations, isConflict, objectKey, resources, type EventRecorder, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { KeyedBackoff } from '../../util/keyed-backoff.js';
import { controllerRef, targetNode } from './daemon-pod.js';
import { ControllerHistory } from '../history/controller-history.js';
import { revisionName } from '../history/revisions.js';
import { labelSelectorOf } from '../replicaset/replicated-kinds.js';
import { DaemonSetLaunch } from './daemonset-launch.js';
import { DaemonSetTransactions, type NodeProgress } from './daemonset-transactions.js';
import { computeStatus, statusChanged } from './daemonset-status.js';
import { planManage } from './manage.js';
import { compileEligibility, type Eligibility } from './node-eligibility.js';
import { carryOut } from './pod-actions.js';
import { PodControl } from '../replicaset/pod-control.js';
import { planRollingUpdate, scaledValue } from './rolling-update.js';
import { byAge, isTerminal, REVISION_HASH_LABEL, type DaemonSet, type DaemonSetStatus } from './types.js';
import { isPodAvailable } from '../../api/core/pod-conditions.js';
import { nodeReadyStatus } from '../../api/core/node-conditions.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Node, Pod } from '../../api/core/index.js';

export interface DaemonSetControllerOptions {
  workers?: number;
  /** Back-off before a failed daemon pod is replaced again on the same node: initial and cap. */
  failedPodBackoffMs?: { initial: number; max: number };
}

export class DaemonSetController extends WorkloadController<DaemonSet> {
  private readonly pods: Informer<Pod>;
  private readonly nodes: Informer<Node>;
  private readonly expectations = new Expectations();
  private readonly backoff: KeyedBackoff;
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControl;
  private readonly transactions: DaemonSetTransactions;
  private readonly history: ControllerHistory;

  constructor(ctx: ControllerContext, options: DaemonSetControllerOptions = {}) {
    super(ctx, { name: 'daemonset-controller', resource: resources.daemonsets, workers: options.workers ?? 2 });
    this.recorder = ctx.recorder(this.name);
    this.podControl = new PodControl(ctx.api, this.recorder);
    this.transactions = new DaemonSetTransactions(ctx.transactions);
    new DaemonSetLaunch(ctx.transactions).observe(this.primary, (key) => ctx.shards.owns(key));
    this.history = new ControllerHistory(ctx);
    // Kubernetes' failedPodsBackoff: 1 s doubling to 15 min per DaemonSet and node, so a node that
    // keeps failing the pod is retried ever more slowly instead of in a create/fail/delete loop.
    this.backoff = new KeyedBackoff({ initialMs: options.failedPodBackoffMs?.initial ?? 1000, maxMs: options.failedPodBackoffMs?.max ?? 15 * 60_000 });
    this.pods = this.owns<Pod>(resources.pods, { expectations: { store: this.expectations, by: 'uid' } });
    // Which nodes a DaemonSet runs on depends on the nodes: a change that matters looks at every one.
    const everyDaemonSet = () => {
      for (const key of this.primary.keys()) this.queue.add(key);
    };
    this.nodes = this.watches<Node>(resources.nodes, {
      onAdd: everyDaemonSet,
      onUpdate: (old, node) => {
        if (old === node || nodeChanged(old, node)) everyDaemonSet();
      },
      onDelete: everyDaemonSet,
    });
  }

  protected override forget(ds: Readonly<DaemonSet>): void {
    const uid = ds.metadata.uid ?? '';
    this.expectations.delete(uid);
    this.backoff.resetPrefix(`${uid}/`);
    this.transactions.forget(uid);
  }

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.primary.get(key);
    // A DaemonSet being deleted is left to the garbage collector, as in Kubernetes.
    if (!cached || cached.metadata.deletionTimestamp) return;
    const ds = cached;
    const uid = ds.metadata.uid!;
    const now = Date.now();
    const collisionCount = ds.status?.collisionCount ?? 0;
    const revision = await this.history.sync({
      owner: ds,
      ownerResource: resources.daemonsets,
      controllerRef: controllerRef(ds),
      selector: labelSelectorOf(ds),
      template: ds.spec.template,
      collisionCount,
      hashLabel: REVISION_HASH_LABEL,
    });
    if (revision.collision) {
      await this.writeStatus(ds, { ...computeStatusFromCache(ds), collisionCount: collisionCount + 1 });
      return { requeueAfterMs: 10 };
    }
    const hash = revision.hash;
    const nodes = this.nodes.list();
    const eligibility = memoizedEligibility(ds);
    const pods = this.pods.byIndex(CONTROLLER_UID_INDEX, uid);
    const podsByNode = groupByNode(pods);
    const livePods = groupByNode(pods.filter((p) => !p.metadata.deletionTimestamp && !isTerminal(p)));
    const minReadySeconds = ds.spec.minReadySeconds ?? 0;
    const progress = nodeProgress(nodes, livePods, eligibility, hash, minReadySeconds, now);
    let requeueAfterMs: number | undefined;

    if (this.expectations.satisfied(uid)) {
      const rolling = this.rollingUpdateLimits(ds, nodes, livePods, eligibility);
      const plan = planManage({
        nodes,
        podsByNode,
        eligibility,
        hash,
        minReadySeconds,
        now,
        surge: rolling !== undefined && rolling.maxSurge > 0,
        failedBackoff: (node) => this.backoff.remainingSinceUpdate(`${uid}/${node}`, now) || undefined,
      });
      requeueAfterMs = plan.retryAfterMs;
      if (plan.createOn.length > 0 || plan.deletions.length > 0) {
        for (const node of plan.failedOn) this.backoff.next(`${uid}/${node}`, now);
        for (const { pod, reason } of plan.deletions) {
          if (reason === 'failed')
            void this.recorder.record(
              ds,
              'Warning',
              'FailedDaemonPod',
              `Found failed daemon pod ${objectKey(pod)} on node ${targetNode(pod)}, will try to kill it`,
            );
        }
        if (plan.failedOn.length > 0) await this.transactions.rescheduleStarted(ds, plan.failedOn, progress);
        await carryOut(this.deps(), ds, plan.createOn, plan.deletions, hash);
      } else if (rolling !== undefined) {
        const step = planRollingUpdate({
          nodeToPods: rolling.nodeToPods,
          hash,
          maxUnavailable: rolling.maxUnavailable,
          maxSurge: rolling.maxSurge,
          minReadySeconds,
          now,
        });
        if (step.createOn.length > 0 || step.deletions.length > 0) {
          const stepNodes = [...new Set([...step.createOn, ...step.deletions.map((d) => targetNode(d.pod) ?? '')])];
          await this.transactions.stepStarted(ds, hash, stepNodes, progress);
          await carryOut(this.deps(), ds, step.createOn, step.deletions, hash);
        }
      }
    }

    const { status, recheckAfterMs } = computeStatus({ ds, nodes, livePods, eligibility, hash, now });
    if (statusChanged(ds.status, status)) await this.writeStatus(ds, status);
    await this.transactions.track(ds, status, hash, progress);
    const inUse = new Set([
      revision.current.metadata.name ?? '',
      ...pods.map((p) => revisionName(ds.metadata.name!, p.metadata.labels?.[REVISION_HASH_LABEL] ?? '')),
    ]);
    await this.history.prune(ds, revision.revisions, ds.spec.revisionHistoryLimit ?? 10, inUse);
    const after = Math.min(requeueAfterMs ?? Infinity, recheckAfterMs ?? Infinity);
    return Number.isFinite(after) ? { requeueAfterMs: Math.ceil(after) + 10 } : undefined;
  }

  /** maxUnavailable/maxSurge of a RollingUpdate DaemonSet and the nodes it rolls over; undefined for OnDelete. */
  private rollingUpdateLimits(
    ds: Readonly<DaemonSet>,
    nodes: readonly Readonly<Node>[],
    livePods: ReadonlyMap<string, readonly Readonly<Pod>[]>,
    eligibility: (node: Readonly<Node>) => Eligibility,
  ) {
    const strategy = ds.spec.updateStrategy;
    if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return undefined;
    const nodeToPods = new Map(livePods);
    let desired = 0;
    for (const node of nodes) {
      if (!eligibility(node).shouldRun) continue;
      desired++;
      if (!nodeToPods.has(node.metadata.name!)) nodeToPods.set(node.metadata.name!, []);
    }
    nodeToPods.delete('');
    const maxSurge = scaledValue(strategy?.rollingUpdate?.maxSurge, desired, 0);
    let maxUnavailable = scaledValue(strategy?.rollingUpdate?.maxUnavailable, desired, 1);
    if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    return { nodeToPods, maxSurge, maxUnavailable };
  }

  private async writeStatus(ds: Readonly<DaemonSet>, status: DaemonSetStatus): Promise<void> {
    const client = this.ctx.api.resource<DaemonSet>(resources.daemonsets, ds.metadata.namespace);
    try {
      await client.updateStatus({ ...ds, status: { ...ds.status, ...status } });
    } catch (error) {
      if (!isConflict(error)) throw error;
      // Someone else wrote the object meanwhile; the counts are ours to write either way.
      const fresh = await client.get(ds.metadata.name!);
      if (fresh.metadata.uid !== ds.metadata.uid) return;
      if (fresh.metadata.generation !== ds.metadata.generation) {
        this.queue.add(objectKey(ds));
        return;
      }
      await client.updateStatus({ ...fresh, status: { ...fresh.status, ...status } });
    }
  }

  private deps() {
    return { podControl: this.podControl, expectations: this.expectations };
  }
}

/** The node facts eligibility depends on. */
function nodeChanged(old: Readonly<Node>, node: Readonly<Node>): boolean {
  return (
    !jsonEqual(old.metadata.labels ?? {}, node.metadata.labels ?? {}) ||
    !jsonEqual(old.spec?.taints ?? [], node.spec?.taints ?? []) ||
    (old.spec?.unschedulable ?? false) !== (node.spec?.unschedulable ?? false) ||
    nodeReadyStatus(old) !== nodeReadyStatus(node)
  );
}

function memoizedEligibility(ds: Readonly<DaemonSet>): (node: Readonly<Node>) => Eligibility {
  const test = compileEligibility(ds.spec.template?.spec ?? {});
  const seen = new Map<string, Eligibility>();
  return (node) => {
    const name = node.metadata.name!;
    let result = seen.get(name);
    if (!result) seen.set(name, (result = test(node)));
    return result;
  };
}

function groupByNode(pods: readonly Readonly<Pod>[]): Map<string, Readonly<Pod>[]> {
  const out = new Map<string, Readonly<Pod>[]>();
  for (const pod of pods) {
    const node = targetNode(pod) ?? '';
    const list = out.get(node);
    if (list) list.push(pod);
    else out.set(node, [pod]);
  }
  return out;
}

function nodeProgress(
  nodes: readonly Readonly<Node>[],
  livePods: ReadonlyMap<string, readonly Readonly<Pod>[]>,
  eligibility: (node: Readonly<Node>) => Eligibility,
  hash: string,
  minReadySeconds: number,
  now: number,
): NodeProgress {
  const byName = new Map(nodes.map((n) => [n.metadata.name!, n]));
  const check = (nodeName: string, needsCurrent: boolean): boolean => {
    const node = byName.get(nodeName);
    if (!node || !eligibility(node).shouldRun) return true; // nothing to wait for there
    const oldest = [...(livePods.get(nodeName) ?? [])].sort(byAge)[0];
    if (!oldest || !isPodAvailable(oldest, minReadySeconds, now)) return false;
    return !needsCurrent || oldest.metadata.labels?.[REVISION_HASH_LABEL] === hash;
  };
  return { updated: (n) => check(n, true), available: (n) => check(n, false) };
}

/** The status the DaemonSet has now, to carry over when only collisionCount changes. */
function computeStatusFromCache(ds: Readonly<DaemonSet>): DaemonSetStatus {
  const s = ds.status ?? {};
  return {
    currentNumberScheduled: s.currentNumberScheduled ?? 0,
    numberMisscheduled: s.numberMisscheduled ?? 0,
    desiredNumberScheduled: s.desiredNumberScheduled ?? 0,
    numberReady: s.numberReady ?? 0,
    updatedNumberScheduled: s.updatedNumberScheduled ?? 0,
    numberAvailable: s.numberAvailable ?? 0,
    numberUnavailable: s.numberUnavailable ?? 0,
    ...(s.observedGeneration !== undefined ? { observedGeneration: s.observedGeneration } : {}),
  };
}

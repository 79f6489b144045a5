// The Transactions of a DaemonSet's passes that its written status cannot tell: `update` for each
// rolling step (the nodes whose old pods one pass replaced) until those nodes run an available
// new pod; `reschedule` while failed daemon pods are replaced. The status carries counts only
// (updatedNumberScheduled, numberAvailable), not which nodes a step took nor on which nodes failed
// pods are being replaced (a decision of the pass, held back per node by the failed-pod back-off),
// and a step's per-node progress needs the nodes' eligibility the pass computes; so the reconcile
// reports both. The `launch` is observed from the status instead
// (daemonset-launch.ts). The recorder makes every call idempotent; this class remembers which
// nodes each open step waits for.
import type { TransactionRecorder } from '../transactions/recorder.js';
import type { DaemonSet, DaemonSetStatus } from './types.js';

interface Step {
  hash: string;
  nodes: Set<string>;
}

export interface NodeProgress {
  /** The node runs an available pod of the current template, or no longer needs one. */
  updated(nodeName: string): boolean;
  /** The node runs an available daemon pod, or no longer needs one. */
  available(nodeName: string): boolean;
}

export class DaemonSetTransactions {
  private readonly steps = new Map<string, Step>();
  private readonly rescheduling = new Map<string, Set<string>>();

  constructor(private readonly tx: TransactionRecorder) {}

  /** A rolling step starts: these nodes' pods are being replaced with the template of `hash`. */
  async stepStarted(ds: Readonly<DaemonSet>, hash: string, nodes: readonly string[], progress: NodeProgress): Promise<void> {
    const uid = ds.metadata.uid!;
    const current = this.steps.get(uid);
    if (current && current.hash === hash) {
      const done = [...current.nodes].every((n) => progress.updated(n));
      if (done) {
        await this.tx.progress(ds, 'update', current.nodes.size, current.nodes.size);
        await this.tx.finish(ds, 'update', 'Succeeded', `${current.nodes.size} node(s) updated`);
      } else {
        // The previous step is still under way: this pass widens it.
        for (const node of nodes) current.nodes.add(node);
        await this.tx.begin(ds, 'update', {
          reason: stepReason(hash, current.nodes),
          total: current.nodes.size,
          done: countDone(current.nodes, progress.updated),
        });
        return;
      }
    }
    const step = { hash, nodes: new Set(nodes) };
    this.steps.set(uid, step);
    // A step of an older template is superseded; otherwise the previous step finished above.
    await this.tx.begin(ds, 'update', {
      reason: stepReason(hash, step.nodes),
      total: step.nodes.size,
      done: countDone(step.nodes, progress.updated),
      supersede: current !== undefined && current.hash !== hash,
    });
  }

  /** Failed daemon pods on these nodes are being replaced. */
  async rescheduleStarted(ds: Readonly<DaemonSet>, nodes: readonly string[], progress: NodeProgress): Promise<void> {
    const uid = ds.metadata.uid!;
    const set = this.rescheduling.get(uid) ?? new Set<string>();
    for (const node of nodes) set.add(node);
    this.rescheduling.set(uid, set);
    await this.tx.begin(ds, 'reschedule', {
      reason: `daemon pod failed on node(s) ${[...set].sort().join(', ')}`,
      total: set.size,
      done: countDone(set, progress.available),
    });
  }

  /** Brings every open operation of the DaemonSet up to date after a pass. */
  async track(ds: Readonly<DaemonSet>, status: DaemonSetStatus, hash: string, progress: NodeProgress): Promise<void> {
    await this.trackStep(ds, status, hash, progress);
    await this.trackReschedule(ds, progress);
  }

  forget(uid: string): void {
    this.steps.delete(uid);
    this.rescheduling.delete(uid);
  }

  private async trackStep(ds: Readonly<DaemonSet>, status: DaemonSetStatus, hash: string, progress: NodeProgress): Promise<void> {
    const step = this.steps.get(ds.metadata.uid!);
    if (!step) {
      // Opened before a restart: the nodes are not known, but a finished rollout ends it.
      const desired = status.desiredNumberScheduled;
      if (status.updatedNumberScheduled >= desired && status.numberAvailable >= desired && this.tx.isOpen(ds, 'update')) {
        await this.tx.finish(ds, 'update', 'Succeeded', 'rollout complete');
      }
      return;
    }
    if (step.hash !== hash) return; // the next step supersedes it
    const done = countDone(step.nodes, progress.updated);
    await this.tx.progress(ds, 'update', done, step.nodes.size);
    if (done === step.nodes.size) {
      await this.tx.finish(ds, 'update', 'Succeeded', `${done} node(s) updated`);
      this.steps.delete(ds.metadata.uid!);
    }
  }

  private async trackReschedule(ds: Readonly<DaemonSet>, progress: NodeProgress): Promise<void> {
    const set = this.rescheduling.get(ds.metadata.uid!);
    if (!set) return;
    const done = countDone(set, progress.available);
    await this.tx.progress(ds, 'reschedule', done, set.size);
    if (done === set.size) {
      await this.tx.finish(ds, 'reschedule', 'Succeeded', `replacement daemon pod(s) available on ${[...set].sort().join(', ')}`);
      this.rescheduling.delete(ds.metadata.uid!);
    }
  }
}

function countDone(nodes: ReadonlySet<string>, done: (node: string) => boolean): number {
  let n = 0;
  for (const node of nodes) if (done(node)) n++;
  return n;
}

function stepReason(hash: string, nodes: ReadonlySet<string>): string {
  const names = [...nodes].sort();
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return `rolling update to revision ${hash}: ${shown}`;
}

// A DaemonSet's 'launch' Transaction, observed on the DaemonSets' informer rather than called from
// the reconcile: begun by the first status a pass writes for a new DaemonSet, advanced
// as status.numberReady of desiredNumberScheduled, and ended once the written status (of the
// current generation) shows every desired pod ready and updated, or no node eligible. Only the
// farm member that owns the key records; one that first sees a DaemonSet still launching whose
// launch nobody recorded (a restart, a shard taken over) begins it then. The rolling steps and
// reschedules stay with the reconcile (daemonset-transactions.ts): see there why.
import type { Informer } from '../../client/index.js';
import { observeOwned, type OwnedObserver } from '../shape/owned-events.js';
import type { BeginOptions, TransactionRecorder } from '../transactions/recorder.js';
import type { DaemonSet } from './types.js';

export class DaemonSetLaunch implements OwnedObserver<DaemonSet> {
  constructor(private readonly tx: TransactionRecorder) {}

  /** `owns`: whether this process reconciles the key. */
  observe(daemonSets: Informer<DaemonSet>, owns: (key: string) => boolean): void {
    observeOwned(daemonSets, owns, this);
  }

  /** Begun with the first status a pass writes: only then is desiredNumberScheduled known. */
  begin(old: Readonly<DaemonSet>, ds: Readonly<DaemonSet>): void {
    if (old.status?.observedGeneration === undefined && ds.status?.observedGeneration !== undefined) void this.tx.begin(ds, 'launch', launchOf(ds));
  }

  /** A DaemonSet still launching (first generation, never all ready) whose launch nobody recorded. */
  catchUp(ds: Readonly<DaemonSet>): void {
    const created = ds.metadata.creationTimestamp;
    const observed = ds.status?.observedGeneration;
    if (!created || observed === undefined || observed > 1 || launched(ds)) return;
    this.tx.beginUnlessRecordedSince(ds, 'launch', created, launchOf(ds));
  }

  settle(ds: Readonly<DaemonSet>): void {
    if (!this.tx.isOpen(ds, 'launch') || !writtenForGeneration(ds)) return;
    const { desired, ready } = countsOf(ds);
    if (desired === 0) void this.tx.finish(ds, 'launch', 'Succeeded', 'no node is eligible for the daemon pod');
    else if (launched(ds)) {
      void this.tx.progress(ds, 'launch', desired, desired);
      void this.tx.finish(ds, 'launch', 'Succeeded', `${desired} daemon pod(s) ready`);
    } else void this.tx.progress(ds, 'launch', ready, desired);
  }
}

function launchOf(ds: Readonly<DaemonSet>): BeginOptions {
  const { desired, ready } = countsOf(ds);
  return { reason: 'DaemonSet created', total: desired, done: ready };
}

function countsOf(ds: Readonly<DaemonSet>): { desired: number; ready: number } {
  const desired = ds.status?.desiredNumberScheduled ?? 0;
  return { desired, ready: Math.min(ds.status?.numberReady ?? 0, desired) };
}

function writtenForGeneration(ds: Readonly<DaemonSet>): boolean {
  const observed = ds.status?.observedGeneration;
  return observed !== undefined && observed >= (ds.metadata.generation ?? 0);
}

/** Every desired daemon pod ready and of the current template, as the written status says. */
function launched(ds: Readonly<DaemonSet>): boolean {
  const s = ds.status;
  return (
    writtenForGeneration(ds) &&
    (s?.numberReady ?? 0) >= (s?.desiredNumberScheduled ?? 0) &&
    (s?.updatedNumberScheduled ?? 0) >= (s?.desiredNumberScheduled ?? 0)
  );
}

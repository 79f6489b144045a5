// How the workload controllers use the TransactionRecorder: whether an operation is open is
// remembered here for the operations this process began or finished (the recorder's fallback,
// the informer, is for transactions opened before a restart), so a pass that finds nothing
// open costs nothing. Every call is fire-and-forget: the recorder orders the writes of one
// (target, operation) and never throws.
import type { KubeObject } from '../../api/meta.js';
import type { BeginOptions, TransactionRecorder } from '../transactions/recorder.js';
import type { Operation } from '../transactions/types.js';

export class OperationLog {
  /** Open (true) or finished (false), for the operations this process has begun or finished. */
  private readonly open = new Map<string, boolean>();

  constructor(private readonly recorder: TransactionRecorder) {}

  isOpen(target: KubeObject, operation: Operation): boolean {
    return this.open.get(keyOf(target, operation)) ?? this.recorder.isOpen(target, operation);
  }

  begin(target: KubeObject, operation: Operation, options: BeginOptions & { supersede?: boolean }): void {
    this.open.set(keyOf(target, operation), true);
    void this.recorder.begin(target, operation, options);
  }

  progress(target: KubeObject, operation: Operation, done: number, total: number): void {
    if (this.isOpen(target, operation)) void this.recorder.progress(target, operation, done, total);
  }

  finish(target: KubeObject, operation: Operation, phase: 'Succeeded' | 'Failed', message: string): void {
    if (!this.isOpen(target, operation)) return;
    this.open.set(keyOf(target, operation), false);
    void this.recorder.finish(target, operation, phase, message);
  }

  /** An operation that starts and ends at once. */
  once(target: KubeObject, operation: Operation, options: BeginOptions, phase: 'Succeeded' | 'Failed', message: string): void {
    this.open.set(keyOf(target, operation), false);
    void this.recorder.once(target, operation, options, phase, message);
  }

  /** The target is gone. */
  forget(uid: string | undefined): void {
    if (!uid) return;
    for (const key of this.open.keys()) if (key.startsWith(`${uid}|`)) this.open.delete(key);
  }
}

function keyOf(target: KubeObject, operation: Operation): string {
  return `${target.metadata.uid ?? ''}|${operation}`;
}

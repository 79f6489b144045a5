// The state one sync of one pod carries between its stages, and the earliest time the pod
// asked to be looked at again.
import type { ContainerRuntime, SandboxInfo } from '../runtime/runtime.js';
import type { PodDeps } from './pod-deps.js';
import type { PodRecord } from './pod-record.js';
import type { Pod } from './pod-types.js';

export class SyncContext {
  private retryMs: number | undefined;
  sandbox: SandboxInfo | undefined;
  initDone = false;
  initFailed = false;

  constructor(
    readonly deps: PodDeps,
    readonly record: PodRecord,
    readonly runtime: ContainerRuntime,
  ) {}

  get pod(): Pod {
    return this.record.pod;
  }

  get uid(): string {
    return this.record.pod.metadata.uid ?? '';
  }

  /** Asks for another sync after `ms` (the earliest request wins). */
  retry(ms: number | undefined): void {
    if (ms === undefined) return;
    this.retryMs = this.retryMs === undefined ? ms : Math.min(this.retryMs, ms);
  }

  requeueAfter(defaultMs: number): number {
    return Math.max(0, Math.min(this.retryMs ?? defaultMs, defaultMs));
  }
}

// The state one sync of one pod carries between its stages, and the earliest time the pod
// asked to be looked at again.
import type { ContainerRuntime, SandboxInfo } from '../runtime/runtime.js';
import type { PodDeps } from './pod-deps.js';
import type { PodRecord } from './pod-record.js';
import type { Pod } from '../../api/core/index.js';

/** A sandbox made in this sync that is still starting. */
export interface SandboxStart {
  /** True once it runs (containers may start in it); false when it could not start. */
  running: Promise<boolean>;
  /** The running sandbox with its IP; undefined when it could not start (that is reported). */
  started: Promise<SandboxInfo | undefined>;
}

export class SyncContext {
  private retryMs: number | undefined;
  /** The pod's sandbox; while sandboxStart is set it may not run yet, and has no IP. */
  sandbox: SandboxInfo | undefined;
  sandboxStart: SandboxStart | undefined;
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

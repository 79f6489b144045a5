// What one sync of one pod works on: the pod as last seen, the runtime it runs on, what the
// agent remembers of it between syncs, and the agent's shared parts. The stages of a sync only
// read this; each hands what it found or made to the next as its return value, so the order of
// the stages is the order of the values in syncPod and nothing is left half-written between them.
import type { ContainerRuntime } from '../runtime/runtime.js';
import type { PodDeps } from './deps.js';
import type { PodRecord } from './record.js';
import type { Pod } from '../../api/core/index.js';

export interface PodSync {
  readonly deps: PodDeps;
  /** Kept between syncs (waiting reasons, volumes, the last status written): not per-sync state. */
  readonly record: PodRecord;
  readonly runtime: ContainerRuntime;
  readonly pod: Pod;
  readonly uid: string;
}

export function podSync(deps: PodDeps, record: PodRecord): PodSync {
  const pod = record.pod;
  return { deps, record, runtime: deps.runtimes.forPod(pod), pod, uid: pod.metadata.uid ?? '' };
}

/** A stage's wish to be looked at again after `retryInMs` (absent: no wish). */
export interface Retry {
  retryInMs?: number | undefined;
}

/** The earliest of the stages' wishes; undefined when none asked. */
export function soonest(...delays: Array<number | undefined>): number | undefined {
  const asked = delays.filter((ms): ms is number => ms !== undefined);
  return asked.length === 0 ? undefined : Math.min(...asked);
}

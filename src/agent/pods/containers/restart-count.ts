// A container's restartCount, forgotten once an instance has run for 30 minutes (the original
// scheduler's reset interval): a container that crashed a few times last week and has run
// fine since does not look like a crash-looping one. The count travels on each instance as a
// label, so it survives agent restarts.
import type { Instance } from '../observe.js';

export const RESTART_COUNT_LABEL = 'drover.dev/restart-count';
export const RESTART_COUNT_RESET_MS = 30 * 60_000;

/** The restartCount an instance was started with (older instances: their attempt number). */
export function restartCountOf(instance: Instance): number {
  const label = Number(instance.summary.labels[RESTART_COUNT_LABEL]);
  return Number.isInteger(label) && label >= 0 ? label : instance.attempt;
}

/** The restartCount of the instance that replaces this one. */
export function restartCountAfter(instance: Instance, now = Date.now()): number {
  const started = instance.status?.startedAt?.getTime();
  const ended = instance.status?.finishedAt?.getTime() ?? now;
  if (started !== undefined && ended - started >= RESTART_COUNT_RESET_MS) return 0;
  return restartCountOf(instance) + 1;
}

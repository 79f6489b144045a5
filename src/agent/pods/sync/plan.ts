// What to do next for each container of a pod, decided from the runtime's state alone (no
// I/O here, so the rules are unit-tested): init containers one at a time and in order, then
// the app containers; restarts by restartPolicy under the crash back-off; a container whose
// liveness or startup probe failed is killed. Instances from an earlier sandbox do not count
// as current: a new sandbox starts the pod over, init containers included.
import { SANDBOX_ID } from '../../runtime/labels.js';
import { formatDelay, type KeyedBackoff } from '../../../util/keyed-backoff.js';
import { SPEC_HASH_LABEL, containerHash } from '../containers/spec.js';
import { hasFinished, isRunning, startFailed, type Instance, type PodRuntime } from '../observe.js';
import { restartCountAfter } from '../containers/restart-count.js';
import { restartPolicyOf } from '../types.js';
import type { Container, Pod, RestartPolicy } from '../../../api/core/index.js';

export type Step =
  | { kind: 'start'; container: Container; isInit: boolean; attempt: number; restartCount: number; restart?: { key: string; eventTime: number } }
  | { kind: 'start-existing'; container: Container; isInit: boolean; instance: Instance }
  | { kind: 'kill'; container: Container; instance: Instance; why: 'liveness' | 'startup' | 'changed' }
  | { kind: 'backoff'; container: Container; isInit: boolean; remainingMs: number; message: string };

export interface PodPlan {
  steps: Step[];
  /** Every init container has succeeded (the app containers may run). */
  initDone: boolean;
}

export interface PlanInput {
  pod: Pod;
  state: PodRuntime;
  sandboxId: string;
  backoff: KeyedBackoff;
  unhealthy(containerId: string): { kind: 'liveness' | 'startup' | 'readiness'; output: string } | undefined;
  startFailedAt(containerId: string): number | undefined;
}

export function backoffKey(pod: Pod, name: string): string {
  return `${pod.metadata.uid ?? ''}/${name}`;
}

/** The attempt number of the next instance: after every instance seen, and after the API's count. */
export function nextAttempt(pod: Pod, state: PodRuntime, name: string, isInit: boolean): number {
  const newest = state.containers.get(name)?.[0];
  const statuses = (isInit ? pod.status?.initContainerStatuses : pod.status?.containerStatuses) ?? [];
  const api = statuses.find((s) => s.name === name);
  const fromApi = api ? api.restartCount + (api.containerID ? 1 : 0) : 0;
  return Math.max(newest ? newest.attempt + 1 : 0, fromApi);
}

function current(input: PlanInput, name: string): Instance | undefined {
  const newest = input.state.containers.get(name)?.[0];
  return newest && newest.summary.labels[SANDBOX_ID] === input.sandboxId ? newest : undefined;
}

function succeeded(instance: Instance): boolean {
  return instance.status!.state === 'exited' && instance.status!.exitCode === 0;
}

export function shouldRestart(policy: RestartPolicy, instance: Instance): boolean {
  if (policy === 'Always') return true;
  if (policy === 'Never') return false;
  return !succeeded(instance);
}

function eventTime(input: PlanInput, instance: Instance): number {
  const s = instance.status!;
  return s.finishedAt?.getTime() ?? input.startFailedAt(instance.id) ?? s.createdAt.getTime();
}

/** A restart now, or the wait the back-off still asks for. */
function restart(input: PlanInput, container: Container, isInit: boolean, instance: Instance): Step {
  const key = backoffKey(input.pod, container.name);
  const at = eventTime(input, instance);
  const remainingMs = input.backoff.remaining(key, at);
  if (remainingMs > 0) {
    const { name, namespace, uid } = input.pod.metadata;
    const message = `back-off ${formatDelay(input.backoff.delay(key))} restarting failed container=${container.name} pod=${name ?? ''}_${namespace ?? ''}(${uid ?? ''})`;
    return { kind: 'backoff', container, isInit, remainingMs, message };
  }
  return { kind: 'start', container, isInit, attempt: instance.attempt + 1, restartCount: restartCountAfter(instance), restart: { key, eventTime: at } };
}

/** The step for one container, or undefined when it is fine as it is. */
function decide(input: PlanInput, container: Container, isInit: boolean): Step | undefined {
  const policy = restartPolicyOf(input.pod);
  const cur = current(input, container.name);
  if (!cur) {
    const stale = input.state.containers.get(container.name)?.[0];
    // An app container that finished for good in an earlier sandbox stays finished.
    if (!isInit && stale && hasFinished(stale) && !shouldRestart(policy, stale)) return undefined;
    const attempt = nextAttempt(input.pod, input.state, container.name, isInit);
    return { kind: 'start', container, isInit, attempt, restartCount: stale ? restartCountAfter(stale) : attempt };
  }
  if (isRunning(cur)) {
    const hash = cur.summary.labels[SPEC_HASH_LABEL];
    if (hash !== undefined && hash !== containerHash(container)) return { kind: 'kill', container, instance: cur, why: 'changed' };
    const bad = isInit ? undefined : input.unhealthy(cur.id);
    if (bad && bad.kind !== 'readiness') return { kind: 'kill', container, instance: cur, why: bad.kind };
    return undefined;
  }
  if (cur.status?.state === 'created' && !startFailed(cur.status)) return { kind: 'start-existing', container, isInit, instance: cur };
  if (!hasFinished(cur)) return undefined;
  if (isInit && succeeded(cur)) return undefined;
  if (!shouldRestart(isInit && policy === 'Always' ? 'OnFailure' : policy, cur)) return undefined;
  return restart(input, container, isInit, cur);
}

/**
 * The next init container's step, or done when all have succeeded. One that failed for good
 * (restartPolicy Never) holds the rest: the pod's phase, computed from the statuses, says Failed.
 */
function planInit(input: PlanInput): { step?: Step; done: boolean } {
  for (const container of input.pod.spec.initContainers ?? []) {
    const cur = current(input, container.name);
    const step = decide(input, container, true);
    if (step) return { step, done: false };
    if (!cur || !hasFinished(cur) || !succeeded(cur)) return { done: false };
  }
  return { done: true };
}

export function planPod(input: PlanInput): PodPlan {
  const init = planInit(input);
  if (!init.done) return { steps: init.step ? [init.step] : [], initDone: false };
  const steps: Step[] = [];
  for (const container of input.pod.spec.containers) {
    const step = decide(input, container, false);
    if (step) steps.push(step);
  }
  return { steps, initDone: true };
}

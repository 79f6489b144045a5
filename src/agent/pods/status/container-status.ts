// One container's status as the API shows it (state, lastState, ready, started,
// restartCount, image, imageID, containerID), from its runtime instances newest first and
// the reason the agent has for it waiting, with Kubernetes' exact reasons.
import { restartCountOf } from '../containers/restart-count.js';
import type { ContainerStatus } from '../../runtime/runtime.js';
import { k8sTime } from '../../util/time.js';
import { startFailed, type Instance } from '../observe.js';
import type { Waiting } from '../record.js';
import type { Container, ContainerState, ContainerStateTerminated, ContainerStatus as ApiContainerStatus } from '../../../api/core/index.js';

export interface ContainerStatusInput {
  container: Container;
  isInit: boolean;
  /** Newest first; only the first two need inspection results. */
  instances: readonly Instance[];
  /** Why it has no running instance, as the last start attempt left it. */
  waiting: Waiting | undefined;
  /** Reason when nothing has run yet: PodInitializing or ContainerCreating. */
  defaultWaiting: string;
  runtimeName: string;
  /** The status the API had, for restart counts the runtime no longer shows. */
  previous: ApiContainerStatus | undefined;
  ready(containerId: string): boolean;
  started(containerId: string): boolean;
  terminationMessage(containerId: string): string | undefined;
  startFailedAt(containerId: string): number | undefined;
}

function time(date: Date | undefined): string | undefined {
  return date ? k8sTime(date) : undefined;
}

export function terminatedReason(s: ContainerStatus): string {
  if (s.oomKilled) return 'OOMKilled';
  if (startFailed(s)) return 'ContainerCannotRun';
  return s.exitCode === 0 ? 'Completed' : 'Error';
}

function terminated(input: ContainerStatusInput, instance: Instance): ContainerStateTerminated {
  const s = instance.status!;
  const failedAt = input.startFailedAt(instance.id);
  const fallback = failedAt === undefined ? s.createdAt : new Date(failedAt);
  const out: ContainerStateTerminated = {
    exitCode: startFailed(s) && s.exitCode === 0 ? 128 : s.exitCode,
    reason: terminatedReason(s),
    startedAt: time(s.startedAt ?? fallback)!,
    finishedAt: time(s.finishedAt ?? fallback)!,
    containerID: `${input.runtimeName}://${instance.id}`,
  };
  const message = startFailed(s) ? s.error : input.terminationMessage(instance.id);
  if (message) out.message = message;
  return out;
}

function waitingState(w: Waiting | undefined): ContainerState['waiting'] {
  if (!w) return undefined;
  return w.message ? { reason: w.reason, message: w.message } : { reason: w.reason };
}

function finished(instance: Instance | undefined): boolean {
  const s = instance?.status;
  return s !== undefined && (s.state === 'exited' || startFailed(s));
}

function states(input: ContainerStatusInput): { state: ContainerState; lastState: ContainerState } {
  const [newest, previous] = input.instances;
  const last: ContainerState = finished(previous) ? { terminated: terminated(input, previous!) } : {};
  if (!newest?.status) {
    const prior = input.previous?.lastState ?? {};
    return { state: { waiting: waitingState(input.waiting) ?? { reason: input.defaultWaiting } }, lastState: prior };
  }
  const s = newest.status;
  if (s.state === 'running') return { state: { running: { startedAt: time(s.startedAt ?? s.createdAt)! } }, lastState: last };
  if (!finished(newest)) return { state: { waiting: waitingState(input.waiting) ?? { reason: 'ContainerCreating' } }, lastState: last };
  // Finished: waiting for a restart (back-off, a failed pull) or terminated for good.
  if (input.waiting) return { state: { waiting: waitingState(input.waiting)! }, lastState: { terminated: terminated(input, newest) } };
  return { state: { terminated: terminated(input, newest) }, lastState: last };
}

export function containerStatus(input: ContainerStatusInput): ApiContainerStatus {
  const newest = input.instances[0];
  const { state, lastState } = states(input);
  const running = state.running !== undefined && newest !== undefined;
  const initDone = input.isInit && state.terminated?.exitCode === 0;
  const out: ApiContainerStatus = {
    name: input.container.name,
    state,
    lastState,
    ready: running ? input.ready(newest.id) : initDone,
    restartCount: newest ? restartCountOf(newest) : (input.previous?.restartCount ?? 0),
    image: input.container.image ?? '',
    imageID: newest?.status?.imageId ?? newest?.summary.imageId ?? '',
    started: running ? input.started(newest.id) : false,
  };
  if (newest) out.containerID = `${input.runtimeName}://${newest.id}`;
  return out;
}

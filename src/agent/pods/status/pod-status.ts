// A pod's status from its container statuses, with the kubelet's rules: the phase (getPhase),
// the conditions (PodReadyToStartContainers, Initialized, Ready, ContainersReady,
// PodScheduled) whose lastTransitionTime moves only when they flip, and the addresses.
import { k8sTime } from '../../util/time.js';
import { isTerminalPhase, restartPolicyOf } from '../types.js';
import type { ContainerStatus, Pod, PodCondition, PodPhase, PodStatus } from '../../../api/core/index.js';

export interface PodStatusInput {
  pod: Pod;
  initStatuses: ContainerStatus[];
  appStatuses: ContainerStatus[];
  /** The sandbox is up (its network exists). */
  sandboxReady: boolean;
  podIP: string;
  hostIP: string;
  startTime: string;
  /** The status the conditions' transition times continue from (default: the pod's). */
  previous?: PodStatus | undefined;
  now?: Date;
}

function initCounts(pod: Pod, statuses: readonly ContainerStatus[]): { pending: number; failed: number } {
  let pending = 0;
  let failed = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const s = statuses.find((x) => x.name === c.name);
    if (!s || s.state.running) pending++;
    else if (s.state.terminated) failed += s.state.terminated.exitCode === 0 ? 0 : 1;
    else if (s.lastState.terminated) failed += s.lastState.terminated.exitCode === 0 ? 0 : 1;
    else pending++;
  }
  return { pending, failed };
}

/** Kubernetes' getPhase: Pending until every container started, terminal once all stopped for good. */
export function podPhase(pod: Pod, init: readonly ContainerStatus[], app: readonly ContainerStatus[]): PodPhase {
  if (isTerminalPhase(pod.status?.phase)) return pod.status.phase;
  const policy = restartPolicyOf(pod);
  const { pending, failed } = initCounts(pod, init);
  let unknown = 0,
    running = 0,
    waiting = 0,
    stopped = 0,
    succeeded = 0;
  for (const c of pod.spec.containers) {
    const s = app.find((x) => x.name === c.name);
    if (!s) unknown++;
    else if (s.state.running) running++;
    else if (s.state.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.lastState.terminated) stopped++;
    else waiting++;
  }
  if (failed > 0 && policy === 'Never') return 'Failed';
  const anyStarted = app.some((s) => s.containerID !== undefined);
  if ((pending > 0 && !anyStarted) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    return policy === 'Never' ? 'Failed' : 'Running';
  }
  return 'Pending';
}

type Core = Omit<PodCondition, 'lastTransitionTime' | 'lastProbeTime'>;

function listed(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function ourConditions(input: PodStatusInput, phase: PodPhase): Core[] {
  const { pod } = input;
  const initPending = (pod.spec.initContainers ?? [])
    .filter((c) => input.initStatuses.find((s) => s.name === c.name)?.state.terminated?.exitCode !== 0)
    .map((c) => c.name);
  const anyStarted = input.appStatuses.some((s) => s.containerID !== undefined);
  const initialized = initPending.length === 0 || anyStarted || phase === 'Succeeded';
  const unready = pod.spec.containers.filter((c) => !input.appStatuses.find((s) => s.name === c.name)?.ready).map((c) => c.name);
  const ready: Core =
    unready.length === 0
      ? { type: 'ContainersReady', status: 'True' }
      : phase === 'Succeeded'
        ? { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' }
        : { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: ${listed(unready)}` };
  return [
    { type: 'PodReadyToStartContainers', status: input.sandboxReady ? 'True' : 'False' },
    initialized
      ? { type: 'Initialized', status: 'True' }
      : { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: ${listed(initPending)}` },
    podReady(input, ready),
    ready,
  ];
}

/** Ready is ContainersReady, held back by readiness gates whose conditions others set. */
function podReady(input: PodStatusInput, containersReady: Core): Core {
  if (containersReady.status !== 'True') return { ...containersReady, type: 'Ready' };
  const conditions = (input.previous ?? input.pod.status)?.conditions ?? [];
  const unmet: string[] = [];
  for (const gate of input.pod.spec.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (!c) unmet.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True') unmet.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  if (unmet.length === 0) return { type: 'Ready', status: 'True' };
  return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: unmet.join(', ') };
}

export function podConditions(input: PodStatusInput, phase: PodPhase): PodCondition[] {
  const now = k8sTime(input.now);
  const before = (input.previous ?? input.pod.status)?.conditions ?? [];
  const stamp = (c: Core): PodCondition => {
    const old = before.find((b) => b.type === c.type);
    const lastTransitionTime = old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now;
    return { ...c, lastProbeTime: null, lastTransitionTime };
  };
  const ours = ourConditions(input, phase).map(stamp);
  const scheduled = before.find((c) => c.type === 'PodScheduled') ?? stamp({ type: 'PodScheduled', status: 'True' });
  const foreign = before.filter((c) => !ours.some((o) => o.type === c.type) && c.type !== 'PodScheduled');
  return [...ours, scheduled, ...foreign];
}

export function buildPodStatus(input: PodStatusInput): PodStatus {
  const { pod } = input;
  const phase = podPhase(pod, input.initStatuses, input.appStatuses);
  const status: PodStatus = {
    phase,
    conditions: podConditions(input, phase),
    hostIP: input.hostIP,
    hostIPs: [{ ip: input.hostIP }],
    startTime: input.startTime,
    containerStatuses: input.appStatuses,
  };
  if (input.podIP) {
    status.podIP = input.podIP;
    status.podIPs = [{ ip: input.podIP }];
  }
  if ((pod.spec.initContainers ?? []).length > 0) status.initContainerStatuses = input.initStatuses;
  if (pod.status?.qosClass) status.qosClass = pod.status.qosClass;
  return status;
}

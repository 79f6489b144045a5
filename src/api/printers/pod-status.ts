// The READY, STATUS and RESTARTS cells of `kubectl get pods`, computed as Kubernetes' pod
// printer does: the pod's phase or reason, overridden by the first init container still
// working (`Init:1/3`, `Init:CrashLoopBackOff`), then by the main containers' waiting or
// terminated reasons, and finally by `Terminating` / `Unknown` for pods being deleted.
import { parseTimestamp } from './format.js';
import { at, listAt, numberAt, stringAt } from './read.js';

export interface PodSummary {
  readyContainers: number;
  totalContainers: number;
  reason: string;
  restarts: number;
  /** When a counted container last terminated before restarting (ms since the epoch). */
  lastRestartMs: number | undefined;
}

// Set by the node lifecycle controller on pods of a node that stopped reporting.
const NODE_UNREACHABLE_REASON = 'NodeLost';

/** Tally of restarts and the latest previous termination, over a set of container statuses. */
interface RestartTally {
  restarts: number;
  lastMs: number | undefined;
}

function addRestarts(tally: RestartTally, status: unknown): void {
  tally.restarts += numberAt(status, 'restartCount');
  const finished = parseTimestamp(at(status, 'lastState', 'terminated', 'finishedAt'));
  if (finished !== undefined && (tally.lastMs === undefined || tally.lastMs < finished)) tally.lastMs = finished;
}

/** The status of the first condition of `type` ('True', 'False', 'Unknown'), or undefined. */
function conditionStatus(pod: unknown, type: string): string | undefined {
  const condition = listAt(pod, 'status', 'conditions').find((c) => stringAt(c, 'type') === type);
  return condition === undefined ? undefined : stringAt(condition, 'status');
}

function hasReadyCondition(pod: unknown): boolean {
  return listAt(pod, 'status', 'conditions').some((c) => stringAt(c, 'type') === 'Ready' && stringAt(c, 'status') === 'True');
}

function initialReason(pod: unknown): string {
  let reason = stringAt(pod, 'status', 'reason') || stringAt(pod, 'status', 'phase');
  for (const condition of listAt(pod, 'status', 'conditions')) {
    if (stringAt(condition, 'type') === 'PodScheduled' && stringAt(condition, 'reason') === 'SchedulingGated') {
      reason = 'SchedulingGated';
    }
  }
  return reason;
}

/** Sidecars: init containers with restartPolicy Always, which keep running beside the others. */
function sidecarNames(pod: unknown): Set<string> {
  const names = new Set<string>();
  for (const container of listAt(pod, 'spec', 'initContainers')) {
    if (stringAt(container, 'restartPolicy') === 'Always') names.add(stringAt(container, 'name'));
  }
  return names;
}

function terminatedReason(terminated: unknown, prefix: string): string {
  const reason = stringAt(terminated, 'reason');
  if (reason !== '') return prefix + reason;
  const signal = numberAt(terminated, 'signal');
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${numberAt(terminated, 'exitCode')}`;
}

interface InitScan {
  reason: string | undefined; // set while initialization is still in progress or failed
  ready: number;
  all: RestartTally;
  sidecars: RestartTally;
}

// The first init container that is neither done nor a started sidecar decides the status.
function scanInitContainers(pod: unknown, sidecars: Set<string>): InitScan {
  const scan: InitScan = {
    reason: undefined,
    ready: 0,
    all: { restarts: 0, lastMs: undefined },
    sidecars: { restarts: 0, lastMs: undefined },
  };
  const statuses = listAt(pod, 'status', 'initContainerStatuses');
  const declared = listAt(pod, 'spec', 'initContainers').length;
  for (const [i, status] of statuses.entries()) {
    const isSidecar = sidecars.has(stringAt(status, 'name'));
    addRestarts(scan.all, status);
    if (isSidecar) addRestarts(scan.sidecars, status);
    const terminated = at(status, 'state', 'terminated');
    const waitingReason = stringAt(status, 'state', 'waiting', 'reason');
    if (terminated !== undefined && numberAt(terminated, 'exitCode') === 0) continue;
    if (isSidecar && at(status, 'started') === true) {
      if (at(status, 'ready') === true) scan.ready++;
      continue;
    }
    if (terminated !== undefined) scan.reason = terminatedReason(terminated, 'Init:');
    else if (waitingReason !== '' && waitingReason !== 'PodInitializing') scan.reason = `Init:${waitingReason}`;
    else scan.reason = `Init:${i}/${declared}`;
    break;
  }
  return scan;
}

// Walks from the last container to the first, so the first container's state wins.
function scanContainers(pod: unknown, reason: string, tally: RestartTally): { reason: string; ready: number } {
  let ready = 0;
  let hasRunning = false;
  const statuses = listAt(pod, 'status', 'containerStatuses');
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i];
    addRestarts(tally, status);
    const waitingReason = stringAt(status, 'state', 'waiting', 'reason');
    const terminated = at(status, 'state', 'terminated');
    if (waitingReason !== '') reason = waitingReason;
    else if (terminated !== undefined) reason = terminatedReason(terminated, '');
    else if (at(status, 'ready') === true && at(status, 'state', 'running') !== undefined) {
      hasRunning = true;
      ready++;
    }
  }
  // A pod whose last container exited cleanly while another still runs is not "Completed".
  if (reason === 'Completed' && hasRunning) reason = hasReadyCondition(pod) ? 'Running' : 'NotReady';
  return { reason, ready };
}

function deletionReason(pod: unknown, reason: string): string {
  if (at(pod, 'metadata', 'deletionTimestamp') === undefined) return reason;
  if (stringAt(pod, 'status', 'reason') === NODE_UNREACHABLE_REASON) return 'Unknown';
  const phase = stringAt(pod, 'status', 'phase');
  return phase === 'Succeeded' || phase === 'Failed' ? reason : 'Terminating';
}

export function summarizePod(pod: unknown): PodSummary {
  const sidecars = sidecarNames(pod);
  const init = scanInitContainers(pod, sidecars);
  let reason = init.reason ?? initialReason(pod);
  let ready = init.ready;
  let tally = init.all;
  if (init.reason === undefined || conditionStatus(pod, 'Initialized') === 'True') {
    // Once initialized, only sidecar restarts still count among the init containers.
    tally = { ...init.sidecars };
    const main = scanContainers(pod, reason, tally);
    reason = main.reason;
    ready += main.ready;
  }
  return {
    readyContainers: ready,
    totalContainers: listAt(pod, 'spec', 'containers').length + sidecars.size,
    reason: deletionReason(pod, reason),
    restarts: tally.restarts,
    lastRestartMs: tally.lastMs,
  };
}

// Where a pod's start goes: each component notes, for the pods it handles, the moment a stage of
// the start was reached (API request received and written, seen and placed by the scheduler,
// binding written, seen by the agent, sandbox and app container made and started, Running
// written). Kubernetes keeps such figures as histograms (kubelet_pod_start_sli_duration_seconds,
// scheduler_pod_scheduling_duration_seconds), which cannot say which stage of which pod took the
// time; creationTimestamp has one-second resolution. These are wall-clock milliseconds with
// sub-millisecond resolution, comparable across the threads and processes of one machine, kept
// in memory only (a Map entry per pod, the newest few thousand pods): no API write, no I/O.
// The API server serves them, with those of its control-plane thread, at POD_START_STAGES_PATH
// (cluster admins only); `npm run bench:startup` reads them.
import { makeRoom } from '../util/make-room.js';

/** The API server's path for them (a non-resource URL: only cluster admins may read it). */
export const POD_START_STAGES_PATH = '/debug/pod-start-stages';

/** The stages, in the order a pod usually reaches them. */
export const POD_START_STAGES = [
  'apiReceived', // the API server: the create request reached its handler
  'apiWritten', // the API server: the pod is in the store
  'schedulerSeen', // the scheduler: the unbound pod came in by its watch
  'bindSent', // the scheduler: a node was chosen, the binding is sent
  'bindWritten', // the API server: spec.nodeName is in the store
  'agentSeen', // the agent: the bound pod came in by its watch
  'syncStarted', // the agent: a worker began the pod's first sync
  'runtimeRead', // the agent: what the runtime holds of the pod is read
  'sandboxCreated', // the agent: the pod's sandbox exists (starting, or ready at once)
  'volumesReady', // the agent: the pod's volumes are set up (its service account token, say)
  'imageChecked', // the agent: the first container's image is present
  'appCreated', // the agent: the first container is created
  'sandboxStarted', // the agent: the sandbox runs
  'appStarted', // the agent: the first container runs
  'runningWritten', // the API server: the status that says Running is in the store
] as const;

export type PodStartStage = (typeof POD_START_STAGES)[number];

export interface PodStartRecord {
  uid: string;
  namespace: string;
  name: string;
  /** Wall-clock milliseconds (fractional) at which each stage was first reached. */
  at: Partial<Record<PodStartStage, number>>;
}

let anchor = { wall: Date.now(), mono: performance.now() };

/**
 * Wall-clock milliseconds with the monotonic clock's resolution, within a millisecond of
 * Date.now() in every thread and process. Not performance.timeOrigin + performance.now(): the
 * two clocks part (here by about 0.1 ms a second), so a server up for minutes and a bench just
 * started read tens of milliseconds apart. The monotonic clock counts from an anchor on the
 * wall clock, anchored again whenever the wall clock says it has drifted a millisecond.
 */
export function preciseNow(): number {
  const mono = performance.now();
  const wall = Date.now();
  const at = anchor.wall + (mono - anchor.mono);
  if (at >= wall && at < wall + 1) return at;
  anchor = { wall, mono };
  return wall;
}

interface PodRef {
  metadata: { uid?: string | undefined; name?: string | undefined; namespace?: string | undefined };
}

export class PodStartStages {
  private readonly records = new Map<string, PodStartRecord>();

  constructor(private readonly capacity = 4096) {}

  /** Notes that `pod` reached `stage` (the first time only: resyncs and retries change nothing). */
  mark(pod: PodRef, stage: PodStartStage, at = preciseNow()): void {
    const { uid, name, namespace } = pod.metadata;
    if (!uid) return;
    let record = this.records.get(uid);
    if (!record) {
      makeRoom(this.records, this.capacity); // the oldest pods' records go
      record = { uid, namespace: namespace ?? '', name: name ?? '', at: {} };
      this.records.set(uid, record);
    }
    record.at[stage] ??= at;
  }

  /**
   * As mark, for the agent's stages, which its syncs of running pods (resyncs, container
   * restarts) pass again: those are no pod's start, and must not bring back an evicted record.
   */
  markIfStarting(pod: PodRef & { status?: { phase?: string | undefined } | undefined }, stage: PodStartStage): void {
    const phase = pod.status?.phase;
    if (phase === undefined || phase === 'Pending') this.mark(pod, stage);
  }

  /** As mark, for a pod whose start is being followed already: a write to a running pod's status is no start. */
  markKnown(pod: PodRef, stage: PodStartStage): void {
    if (this.records.has(pod.metadata.uid ?? '')) this.mark(pod, stage);
  }

  list(): PodStartRecord[] {
    return [...this.records.values()].map((r) => ({ ...r, at: { ...r.at } }));
  }
}

/** This thread's stages: each component of the thread marks here. */
export const podStartStages = new PodStartStages();

/** Several threads' or processes' records as one per pod, the earliest moment of each stage kept. */
export function mergePodStartRecords(lists: ReadonlyArray<readonly PodStartRecord[]>): PodStartRecord[] {
  const merged = new Map<string, PodStartRecord>();
  for (const list of lists) {
    for (const record of list) {
      const into = merged.get(record.uid);
      if (!into) {
        merged.set(record.uid, { ...record, at: { ...record.at } });
        continue;
      }
      into.name ||= record.name;
      into.namespace ||= record.namespace;
      for (const stage of POD_START_STAGES) {
        const at = record.at[stage];
        if (at !== undefined && !(at >= (into.at[stage] ?? Infinity))) into.at[stage] = at;
      }
    }
  }
  return [...merged.values()];
}

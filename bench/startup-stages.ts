// Where a pod's start goes, stage by stage, from the moments the components note (see
// src/metrics/pod-start-stages.ts, served by the API server) and two the bench notes itself:
// when it ran `kubectl apply`, and when its watch saw each pod Running. The rows follow the
// critical path, each from the moment the previous one ended, so a pod's steps add up to its
// total; the sandbox's start, which runs beside the app container's creation, is shown on its own.
import type { ApiClient } from '../src/client/index.js';
import { POD_START_STAGES_PATH, type PodStartRecord, type PodStartStage } from '../src/metrics/pod-start-stages.js';
import { median, quantile } from './peers.js';

/** A stage noted by a component, or by the bench: `applyStarted` (kubectl run), `observed` (Running seen). */
export type Mark = PodStartStage | 'applyStarted' | 'observed';

interface Row {
  label: string;
  /** The row starts at the latest of these and ends at the latest of `to`. */
  from: Mark[];
  to: Mark[];
  /** Beside the critical path rather than on it. */
  aside?: boolean;
}

const APP_MAY_START: Mark[] = ['appCreated', 'sandboxStarted'];

export const STAGE_ROWS: Row[] = [
  { label: 'kubectl: start-up, discovery, earlier pods', from: ['applyStarted'], to: ['apiReceived'] },
  { label: 'API server: admission, store write', from: ['apiReceived'], to: ['apiWritten'] },
  { label: 'watch delivery to the scheduler', from: ['apiWritten'], to: ['schedulerSeen'] },
  { label: 'scheduler: queue, filter, score', from: ['schedulerSeen'], to: ['bindSent'] },
  { label: 'binding: request and store write', from: ['bindSent'], to: ['bindWritten'] },
  { label: 'watch delivery to the agent', from: ['bindWritten'], to: ['agentSeen'] },
  { label: 'agent: work queue', from: ['agentSeen'], to: ['syncStarted'] },
  { label: 'agent: read the runtime', from: ['syncStarted'], to: ['runtimeRead'] },
  { label: 'sandbox create', from: ['runtimeRead'], to: ['sandboxCreated'] },
  // The volumes are set up beside the sandbox: the row is what they took past it (0 when they were ready first).
  { label: 'volumes (service account token), past the sandbox', from: ['sandboxCreated'], to: ['sandboxCreated', 'volumesReady'] },
  { label: 'image check', from: ['sandboxCreated', 'volumesReady'], to: ['imageChecked'] },
  { label: 'app container create', from: ['imageChecked'], to: ['appCreated'] },
  { label: 'wait for the sandbox to run', from: ['appCreated'], to: APP_MAY_START },
  { label: 'app container start', from: APP_MAY_START, to: ['appStarted'] },
  { label: 'status write (Running)', from: ['appStarted'], to: ['runningWritten'] },
  { label: 'watch delivery to the client', from: ['runningWritten'], to: ['observed'] },
  { label: '  (sandbox start, beside the above)', from: ['sandboxCreated'], to: ['sandboxStarted'], aside: true },
  { label: 'total: kubectl apply → Running seen', from: ['applyStarted'], to: ['observed'] },
];

/** One pod's moments: the components' and the bench's. */
export type PodMarks = Partial<Record<Mark, number>>;

/** One round: every pod's moments. */
export type RoundMarks = PodMarks[];

function latest(marks: PodMarks, names: Mark[]): number | undefined {
  let at = -Infinity;
  for (const name of names) {
    const value = marks[name];
    if (value === undefined) return undefined;
    at = Math.max(at, value);
  }
  return at;
}

/** A row's milliseconds for one pod; undefined where a moment is missing. */
export function rowMs(row: Row, marks: PodMarks): number | undefined {
  const from = latest(marks, row.from);
  const to = latest(marks, row.to);
  return from === undefined || to === undefined ? undefined : to - from;
}

/** The API server's records of recent pods (its own stages and its control-plane thread's). */
export async function fetchStageRecords(api: ApiClient): Promise<PodStartRecord[]> {
  return (await api.request<{ items: PodStartRecord[] }>('GET', POD_START_STAGES_PATH)).items;
}

/**
 * A round's marks: each pod the bench saw Running, with what the components noted of it (by
 * uid) and the moment kubectl was run.
 */
export function roundMarks(records: readonly PodStartRecord[], observed: ReadonlyMap<string, number>, applyStarted: number): RoundMarks {
  const byUid = new Map(records.map((r) => [r.uid, r]));
  return [...observed].map(([uid, at]) => ({ ...(byUid.get(uid)?.at ?? {}), applyStarted, observed: at }));
}

const pad = (text: string, width: number) => text.padStart(width);
/** Whole milliseconds; a step that went backwards by less than one (clocks of two threads) reads 0, not -0. */
const ms = (value: number) => (Number.isFinite(value) ? (Math.round(value) || 0).toFixed(0) : 'n/a');

/**
 * The breakdown's lines. One pod a round: the step's median over the rounds with [min–max].
 * Many: the step's median over every pod of every round with [p10–p90], and when the last pod of
 * a round was through the step (ms after kubectl was run, the median over the rounds).
 */
export function breakdownLines(rounds: readonly RoundMarks[]): string[] {
  const many = rounds.some((round) => round.length > 1);
  const lines = [
    many
      ? `  ${'stage'.padEnd(44)} ${pad('step: median [p10–p90] ms', 28)}   ${pad('last pod through it at (ms)', 28)}`
      : `  ${'stage'.padEnd(44)} ${pad('step: median [min–max] ms', 28)}   ${pad('through it at (ms)', 28)}`,
  ];
  for (const row of STAGE_ROWS) {
    const steps = rounds.flatMap((round) => round.map((marks) => rowMs(row, marks)).filter((v): v is number => v !== undefined));
    if (steps.length === 0) continue;
    const spread = many ? [quantile(steps, 0.1), quantile(steps, 0.9)] : [Math.min(...steps), Math.max(...steps)];
    const step = `${ms(median(steps))} [${ms(spread[0]!)}–${ms(spread[1]!)}]`;
    const through = rounds
      .map((round) => Math.max(...round.map((marks) => (latest(marks, row.to) ?? NaN) - (marks.applyStarted ?? NaN)).filter(Number.isFinite)))
      .filter(Number.isFinite);
    const at = row.aside || through.length === 0 ? '' : `${ms(median(through))} [${ms(Math.min(...through))}–${ms(Math.max(...through))}]`;
    lines.push(`  ${row.label.padEnd(44)} ${pad(step, 28)}   ${pad(at, 28)}`);
  }
  const partial = rounds.flat().filter((marks) => STAGE_ROWS.some((row) => rowMs(row, marks) === undefined)).length;
  if (partial > 0) lines.push(`  (${partial} pod(s) lacked some stages: an agent whose records were not read, or records evicted)`);
  return lines;
}

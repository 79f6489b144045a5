// The ConsistencyReport of a round: its status as the API stores it, the Event per finding,
// and the pruning that keeps the newest reports only.
import { metaTime, type KubeObject } from '../api/meta.js';
import { isNotFound, resources, type ApiClient, type EventRecorder } from '../client/index.js';
import type { RoundResult } from './round.js';

/** Findings written into one report; the count covers all of them. */
export const MAX_REPORTED_FINDINGS = 500;

export interface ConsistencyReport extends KubeObject {
  spec?: { repair?: boolean; trigger?: 'Scheduled' | 'OnDemand' };
  status?: { phase?: string; [field: string]: unknown };
}

export function isPending(report: Readonly<ConsistencyReport>): boolean {
  return !report.status?.phase && !report.metadata.deletionTimestamp;
}

export function isFinished(report: Readonly<ConsistencyReport>): boolean {
  const phase = report.status?.phase;
  return phase === 'Completed' || phase === 'Skipped' || phase === 'Failed';
}

export function reportStatus(result: RoundResult, startTime: Date, checker: string): Record<string, unknown> {
  return {
    phase: result.phase,
    checker,
    startTime: metaTime(startTime),
    completionTime: metaTime(new Date()),
    ...(result.message ? { message: result.message } : {}),
    findingCount: result.findings.length,
    repairedCount: result.findings.filter((f) => f.repairState === 'Repaired').length,
    findings: result.findings.slice(0, MAX_REPORTED_FINDINGS).map(({ finding, repairState }) => ({
      kind: finding.kind,
      ...(finding.object ? { object: finding.object } : {}),
      message: finding.message,
      ...(finding.repair ? { repair: finding.repair.action } : {}),
      repairState,
    })),
    ...(result.storeRevision !== undefined ? { storeRevision: result.storeRevision } : {}),
    ...(result.storeHash ? { storeHash: result.storeHash } : {}),
  };
}

/** A Warning Event per finding, on the object at fault, or on the report when there is none. */
export function recordEvents(events: EventRecorder, report: Readonly<ConsistencyReport>, result: RoundResult): Promise<void[]> {
  return Promise.all(
    result.findings.map(({ finding, repairState }) => {
      const involved = finding.object ?? report;
      const outcome = repairState === 'NoRepair' ? '' : ` (repair: ${repairState})`;
      return events.record(involved, 'Warning', finding.kind, `${finding.message}${outcome}; see ConsistencyReport ${report.metadata.name}`);
    }),
  );
}

/** A round Running this long was left by a checker that stopped (or lost its lease) midway. */
const ABANDONED_AFTER_MS = 3600_000;

function isAbandoned(report: Readonly<ConsistencyReport>, now: number): boolean {
  const started = Date.parse(String(report.status?.['startTime'] ?? ''));
  return report.status?.phase === 'Running' && now - started > ABANDONED_AFTER_MS;
}

/** Deletes the oldest finished (or abandoned) reports beyond the newest `keep`. */
export async function pruneReports(api: ApiClient, reports: readonly Readonly<ConsistencyReport>[], keep: number, now = Date.now()): Promise<void> {
  const finished = reports
    .filter((report) => isFinished(report) || isAbandoned(report, now))
    .sort((a, b) => Number(b.metadata.resourceVersion) - Number(a.metadata.resourceVersion));
  const client = api.resource(resources.consistencyreports);
  for (const old of finished.slice(keep)) {
    await client.delete(old.metadata.name ?? '', { preconditions: { uid: old.metadata.uid ?? '' } }).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }
}

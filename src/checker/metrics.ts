// Prometheus metrics of the data checker, in the components' registry (the API server's
// /metrics serves it: the checker runs in the server process).
import { Counter, Gauge } from 'prom-client';
import { componentRegistry } from '../metrics/component-metrics.js';
import type { RoundResult } from './round.js';

export const dataCheckRounds = new Counter({
  name: 'drover_data_check_rounds_total',
  help: 'Data-check rounds, by phase (Completed, Skipped, Failed)',
  labelNames: ['phase'] as const,
  registers: [componentRegistry],
});

export const dataCheckFindings = new Counter({
  name: 'drover_data_check_findings_total',
  help: 'Inconsistencies found by the data checker, by kind',
  labelNames: ['kind'] as const,
  registers: [componentRegistry],
});

export const dataCheckLastFindings = new Gauge({
  name: 'drover_data_check_last_round_findings',
  help: 'Inconsistencies the last completed data-check round found, by kind',
  labelNames: ['kind'] as const,
  registers: [componentRegistry],
});

export const dataCheckRepairs = new Counter({
  name: 'drover_data_check_repairs_total',
  help: 'Data-checker repairs, by kind and result (Repaired, RepairFailed, Resolved)',
  labelNames: ['kind', 'result'] as const,
  registers: [componentRegistry],
});

export function countRound(result: RoundResult): void {
  dataCheckRounds.inc({ phase: result.phase });
  if (result.phase !== 'Skipped') dataCheckLastFindings.reset();
  for (const { finding, repairState } of result.findings) {
    dataCheckFindings.inc({ kind: finding.kind });
    if (result.phase !== 'Skipped') dataCheckLastFindings.inc({ kind: finding.kind });
    if (repairState === 'Repaired' || repairState === 'RepairFailed' || repairState === 'Resolved')
      dataCheckRepairs.inc({ kind: finding.kind, result: repairState });
  }
}

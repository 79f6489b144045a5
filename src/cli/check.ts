// `drover check [--repair]`: a data-check round now. The round runs in the leading server (its
// store check needs the store), so the command only asks for one — it creates a
// ConsistencyReport with an empty status — waits for the leader to fill it in, and prints it.
import { ApiClient, resources } from '../client/index.js';
import type { ConsistencyReport } from '../checker/report.js';

export interface CheckCommandOptions {
  kubeconfig?: string;
  repair?: boolean;
  /** Seconds to wait for the round. Default 120. */
  timeout?: number;
}

interface ReportedFinding {
  kind: string;
  object?: { kind?: string; namespace?: string; name?: string };
  message: string;
  repairState?: string;
}

const POLL_MS = 250;

/** Asks for a round and waits for its report; `api` is closed by the caller. */
export async function requestRound(api: ApiClient, repair: boolean, timeoutMs: number): Promise<ConsistencyReport> {
  const client = api.resource<ConsistencyReport>(resources.consistencyreports);
  const created = await client.create({
    apiVersion: 'drover.dev/v1',
    kind: 'ConsistencyReport',
    metadata: { generateName: 'check-' },
    spec: { trigger: 'OnDemand', repair },
  });
  const name = created.metadata.name ?? '';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await client.get(name);
    const phase = report.status?.phase;
    if (phase === 'Completed' || phase === 'Skipped' || phase === 'Failed') return report;
    if (Date.now() > deadline) {
      throw new Error(
        `ConsistencyReport ${name} is still ${phase ?? 'waiting for a data checker'} after ${Math.round(timeoutMs / 1000)}s ` +
          '(the checker runs in `drover server` and `drover up` with the control plane)',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function objectName(finding: ReportedFinding): string {
  const object = finding.object;
  if (!object?.name) return '-';
  return `${object.kind ?? ''}/${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
}

/** The report as the command prints it: a summary line, then a table of findings. */
export function formatReport(report: ConsistencyReport): string {
  const status = report.status ?? {};
  const findings = (status['findings'] as ReportedFinding[] | undefined) ?? [];
  const lines = [
    `ConsistencyReport ${report.metadata.name}: ${String(status.phase)}, ${String(status['findingCount'] ?? 0)} finding(s), ${String(status['repairedCount'] ?? 0)} repaired`,
  ];
  if (status['message']) lines.push(String(status['message']));
  if (findings.length === 0) return lines.join('\n');
  const rows = [['KIND', 'OBJECT', 'REPAIR', 'MESSAGE'], ...findings.map((f) => [f.kind, objectName(f), f.repairState ?? '-', f.message])];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) lines.push(row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell)).join('   '));
  return lines.join('\n');
}

/** Whether the report leaves nothing to do: the round completed and every finding was repaired (or resolved itself). */
export function reportIsClean(report: ConsistencyReport): boolean {
  const findings = (report.status?.['findings'] as ReportedFinding[] | undefined) ?? [];
  return report.status?.phase === 'Completed' && findings.every((f) => f.repairState === 'Repaired' || f.repairState === 'Resolved');
}

export async function runCheckCommand(options: CheckCommandOptions): Promise<{ output: string; clean: boolean }> {
  const api = await ApiClient.load(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}, { userAgent: 'drover-cli' });
  try {
    const report = await requestRound(api, options.repair === true, (options.timeout ?? 120) * 1000);
    return { output: formatReport(report), clean: reportIsClean(report) };
  } finally {
    api.close();
  }
}

// One round of the data checker: is it safe to look (the store answers, most agents report),
// then every check over one snapshot, then the repairs that are switched on, each recorded as
// a Transaction. The round never declares loss because it cannot see: when the store cannot be
// read, or more than half of the nodes' agents are silent, it is skipped and says why.
import type { KubeObject } from '../api/meta.js';
import type { ApiClient, Logger } from '../client/index.js';
import type { REPAIR_STATES } from '../api/schemas/consistency-report.js';
import type { TransactionRecorder } from '../controllers/transactions/recorder.js';
import { askAgents } from './agents.js';
import { danglingOwners } from './checks/dangling-owners.js';
import { endpointsAgreement } from './checks/endpoints.js';
import { lostPods } from './checks/lost-pods.js';
import { orphanContainers } from './checks/orphan-containers.js';
import { podGroupCounts } from './checks/pod-groups.js';
import { podsOnMissingNodes } from './checks/pods-on-missing-nodes.js';
import { serviceAddressCollisions } from './checks/service-addresses.js';
import { stuckTransactions } from './checks/stuck-transactions.js';
import { lastHeartbeat, takeSnapshot } from './snapshot.js';
import { checkStore, type StoreProbe } from './store-check.js';
import type { Check, CheckOptions, Finding, Snapshot } from './types.js';

export const CHECKS: ReadonlyArray<readonly [string, Check]> = [
  ['pods on missing nodes', podsOnMissingNodes],
  ['lost pods', lostPods],
  ['dangling owner references', danglingOwners],
  ['endpoints', endpointsAgreement],
  ['service addresses', serviceAddressCollisions],
  ['stuck transactions', stuckTransactions],
  ['pod group counts', podGroupCounts],
  // Last: it may wait the settle time to confirm what it found.
  ['orphan containers', orphanContainers],
];

export type RepairState = (typeof REPAIR_STATES)[number];

export interface CheckedFinding {
  finding: Finding;
  repairState: RepairState;
}

export interface RoundResult {
  phase: 'Completed' | 'Skipped' | 'Failed';
  message?: string;
  findings: CheckedFinding[];
  storeRevision?: number;
  storeHash?: string;
}

export interface RoundDeps {
  api: ApiClient;
  /** The store of this server; without it the store check is left out. */
  store?: StoreProbe;
  transactions: TransactionRecorder;
  options: CheckOptions;
  logger: Logger;
}

/**
 * Why looking now could mistake not seeing for loss, or undefined when it is safe to look: more
 * than half of the nodes have an agent that has not renewed its Lease within lostAfterMs, or
 * that publishes an endpoint and did not answer when asked for its pods.
 */
export function agentsUnseen(snapshot: Snapshot, lostAfterMs: number): string | undefined {
  const unanswered = new Set(snapshot.agentPods?.unanswered ?? []);
  const unseen = snapshot.nodes.filter((node) => snapshot.now - lastHeartbeat(snapshot, node) > lostAfterMs || unanswered.has(node.metadata.name ?? '')).length;
  if (unseen * 2 <= snapshot.nodes.length) return undefined;
  return (
    `${unseen} of ${snapshot.nodes.length} node agents have not reported for ${Math.round(lostAfterMs / 1000)}s or did not answer: ` +
    'the checker cannot tell lost pods from agents it cannot hear'
  );
}

function notChecked(findings: Finding[]): CheckedFinding[] {
  return findings.map((finding) => ({ finding, repairState: finding.repair ? 'NotRepaired' : 'NoRepair' }));
}

export async function runRound(deps: RoundDeps, repairAll: boolean): Promise<RoundResult> {
  const store = deps.store ? await checkStore(deps.store) : { fatal: false, findings: [] };
  const storeFields = { ...(store.revision !== undefined ? { storeRevision: store.revision } : {}), ...(store.hash ? { storeHash: store.hash } : {}) };
  if (store.unreachable) return { phase: 'Skipped', message: store.unreachable, findings: [] };
  if (store.fatal) return { phase: 'Completed', message: 'the store is damaged: no other check trusts what it reads', findings: notChecked(store.findings) };
  let snapshot: Snapshot;
  try {
    snapshot = await takeSnapshot(deps.api);
    // Agents serve over TLS and take the checker's client certificate (src/agent/streaming).
    snapshot.agentPods = await askAgents(snapshot.nodes, deps.api.config.tls);
  } catch (error) {
    return { phase: 'Skipped', message: `the API could not be read: ${(error as Error).message}`, findings: notChecked(store.findings), ...storeFields };
  }
  const unseen = agentsUnseen(snapshot, deps.options.lostAfterMs);
  if (unseen) return { phase: 'Skipped', message: unseen, findings: notChecked(store.findings), ...storeFields };

  const findings = [...store.findings];
  const failures: string[] = [];
  for (const [name, check] of CHECKS) {
    try {
      findings.push(...(await check(snapshot, { api: deps.api, options: deps.options })));
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }
  const checked: CheckedFinding[] = [];
  for (const finding of findings) checked.push({ finding, repairState: await repair(deps, finding, repairAll) });
  const result: RoundResult = { phase: failures.length ? 'Failed' : 'Completed', findings: checked, ...storeFields };
  if (failures.length) result.message = `checks that could not finish: ${failures.join('; ')}`;
  return result;
}

/** The object a repair's Transaction names as its target (one of a cluster-scoped object goes in `default`). */
function targetOf(finding: Finding): KubeObject | undefined {
  const ref = finding.object;
  if (!ref) return undefined;
  const metadata = { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}), ...(ref.uid ? { uid: ref.uid } : {}) };
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata };
}

async function repair(deps: RoundDeps, finding: Finding, repairAll: boolean): Promise<RepairState> {
  const { repair: action } = finding;
  if (!action) return 'NoRepair';
  if (!action.nudge && !repairAll) return 'NotRepaired';
  const target = targetOf(finding);
  if (target) await deps.transactions.begin(target, 'repair', { reason: `${finding.kind}: ${action.action}`, message: finding.message });
  let state: RepairState;
  let message: string;
  try {
    const outcome = await action.run(deps.api);
    state = outcome === 'repaired' ? 'Repaired' : 'Resolved';
    message = outcome === 'repaired' ? `repaired: ${action.action}` : 'already consistent when the repair looked again: nothing changed';
  } catch (error) {
    state = 'RepairFailed';
    message = `repair failed: ${(error as Error).message}`;
    deps.logger.warn('repair failed', { kind: finding.kind, object: finding.object, error });
  }
  if (target) await deps.transactions.finish(target, 'repair', state === 'RepairFailed' ? 'Failed' : 'Succeeded', message);
  return state;
}

// Transactions still Running past their delay plus life period. The transaction controller
// times them out at their deadline; one it missed (it was down and its requeue was lost) stays
// Running forever and blocks its workload's next operation of that kind. The repair nudges the
// Transaction, so that the controller looks at it again and marks it TimedOut: it runs every round.
import { nudge } from '../live.js';
import { refOf, type Check, type Finding } from '../types.js';
import type { Transaction } from '../../controllers/transactions/types.js';

export const stuckTransactions: Check = async (snapshot, { options }) => {
  const findings: Finding[] = [];
  for (const tx of snapshot.transactions as Transaction[]) {
    if (tx.status?.phase !== 'Running') continue;
    const started = Date.parse(tx.status.startTime ?? tx.metadata.creationTimestamp ?? '');
    if (!Number.isFinite(started)) continue;
    const deadline = started + ((tx.spec.delaySeconds ?? 0) + (tx.spec.lifePeriodSeconds ?? 0)) * 1000;
    // The controller gets the settle time to act on its own deadline first.
    if (snapshot.now < deadline + options.settleMs) continue;
    const ref = refOf(tx);
    const late = Math.round((snapshot.now - deadline) / 1000);
    findings.push({
      kind: 'StuckTransaction',
      object: ref,
      message: `${tx.spec.operation} of ${tx.spec.target.kind}/${tx.spec.target.name} is still Running ${late}s past its life period of ${tx.spec.lifePeriodSeconds}s`,
      repair: { action: 'nudge the Transaction so that the transaction controller times it out', nudge: true, run: (api) => nudge(api, ref) },
    });
  }
  return findings;
};

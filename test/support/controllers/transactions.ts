// What controller tests read of the Transactions: those of one target, found by its uid label.
import type { KubeObject } from '../../../src/api/meta.js';
import { resources, type ApiClient } from '../../../src/client/index.js';
import { LABEL_TARGET_UID, type Transaction } from '../../../src/controllers/transactions/types.js';

/** The target's Transactions (of `operation` when given), as the API lists them now. */
export async function transactionsOf(api: ApiClient, target: KubeObject, operation?: string): Promise<Transaction[]> {
  const list = await api.resource<Transaction>(resources.transactions, target.metadata.namespace ?? 'default').list({
    labelSelector: { [LABEL_TARGET_UID]: target.metadata.uid! },
  });
  return operation === undefined ? list.items : list.items.filter((tx) => tx.spec.operation === operation);
}

/** The target's Transaction of `operation` (in `phase` when given). */
export async function transactionOf(api: ApiClient, target: KubeObject, operation: string, phase?: string): Promise<Transaction | undefined> {
  return (await transactionsOf(api, target, operation)).find((tx) => phase === undefined || tx.status?.phase === phase);
}

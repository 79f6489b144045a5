// ResourceDefinitions of Drover's own group, drover.dev/v1: Transactions and ConsistencyReports.
import type { FieldError, KubeObject } from '../meta.js';
import type { ResourceDefinition } from '../resource.js';
import { printerFor } from '../printers/index.js';
import { ConsistencyReportSchema } from '../schemas/consistency-report.js';
import { TransactionSchema } from '../schemas/drover.js';
import { DEFAULT_LIFE_PERIOD_SECONDS, TRANSACTION_OPERATIONS, type Operation } from '../transaction-operations.js';
import { invalid } from '../validation/field-errors.js';
import { obj } from '../validation/util.js';
import { ALL_VERBS, field, noDefaults } from './helpers.js';

function applyTransactionDefaults(tx: KubeObject): void {
  const spec = obj(tx['spec']);
  const operation = spec['operation'];
  const known = (TRANSACTION_OPERATIONS as readonly unknown[]).includes(operation);
  if (spec['lifePeriodSeconds'] === undefined && known) spec['lifePeriodSeconds'] = DEFAULT_LIFE_PERIOD_SECONDS[operation as Operation];
  if (spec['delaySeconds'] === undefined) spec['delaySeconds'] = 0;
}

function validateTransaction(tx: KubeObject): FieldError[] {
  const spec = obj(tx['spec']);
  const errors: FieldError[] = [];
  for (const name of ['lifePeriodSeconds', 'delaySeconds'] as const) {
    const value = spec[name];
    if (typeof value === 'number' && value < 0) errors.push(invalid(`spec.${name}`, value, 'must be greater than or equal to 0'));
  }
  return errors;
}

const transactions: ResourceDefinition = {
  group: 'drover.dev',
  version: 'v1',
  kind: 'Transaction',
  listKind: 'TransactionList',
  plural: 'transactions',
  singular: 'transaction',
  namespaced: true,
  shortNames: ['tx'],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: TransactionSchema,
  applyDefaults: applyTransactionDefaults,
  validate: validateTransaction,
  table: printerFor('Transaction'),
  fieldSelectors: { 'status.phase': field('status.phase'), 'spec.operation': field('spec.operation') },
};

// Cluster-scoped: a round looks at the whole cluster. Created with an empty status, it asks the
// leading server's data checker for a round (see src/checker/).
const consistencyReports: ResourceDefinition = {
  group: 'drover.dev',
  version: 'v1',
  kind: 'ConsistencyReport',
  listKind: 'ConsistencyReportList',
  plural: 'consistencyreports',
  singular: 'consistencyreport',
  namespaced: false,
  shortNames: [],
  categories: [],
  verbs: ALL_VERBS,
  subresources: { status: true },
  schema: ConsistencyReportSchema,
  applyDefaults: noDefaults,
  validate: () => [],
  table: printerFor('ConsistencyReport'),
  fieldSelectors: { 'status.phase': field('status.phase') },
};

export const droverDefinitions: readonly ResourceDefinition[] = [transactions, consistencyReports];

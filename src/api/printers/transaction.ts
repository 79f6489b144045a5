// `kubectl get transactions` for Drover's own drover.dev/v1 Transaction: an operation on a
// target object, carried out in phases.
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, stringAt } from './read.js';

/** `Kind/name` as in an HPA's REFERENCE column; just the name when the kind is missing. */
export function transactionTarget(target: unknown): string {
  const kind = stringAt(target, 'kind');
  const name = stringAt(target, 'name');
  if (name === '') return kind === '' ? '<none>' : kind;
  return kind === '' ? name : `${kind}/${name}`;
}

// Progress may be written as text ("3/5") or as a number; anything else is unset.
function progressCell(progress: unknown): string {
  if (typeof progress === 'string' && progress !== '') return progress;
  if (typeof progress === 'number' && Number.isFinite(progress)) return String(progress);
  return '<none>';
}

function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}

export const transactionPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Target', 'string', 'The object the transaction operates on, as kind/name.'),
    column('Operation', 'string', 'The operation the transaction carries out.'),
    column('Phase', 'string', 'The current phase of the transaction.'),
    column('Progress', 'string', 'How far the transaction has got.'),
    AGE_COLUMN,
  ],
  row(tx, now) {
    return [
      tx.metadata.name ?? '',
      transactionTarget(at(tx, 'spec', 'target')),
      orNone(stringAt(tx, 'spec', 'operation')),
      orNone(stringAt(tx, 'status', 'phase')),
      progressCell(at(tx, 'status', 'progress')),
      age(tx, now),
    ];
  },
};

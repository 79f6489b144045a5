// `kubectl get pdb`: the columns of Kubernetes' printer, N/A for the bound that is not set.
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, numberAt } from './read.js';

function bound(value: unknown): string {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : 'N/A';
}

export const podDisruptionBudgetPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  row: (pdb, now) => [
    pdb.metadata.name ?? '',
    bound(at(pdb, 'spec', 'minAvailable')),
    bound(at(pdb, 'spec', 'maxUnavailable')),
    numberAt(pdb, 'status', 'disruptionsAllowed'),
    age(pdb, now),
  ],
};

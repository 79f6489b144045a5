// `kubectl get priorityclasses`: Kubernetes 1.32's columns, PreemptionPolicy after Age.
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, numberAt, stringAt } from './read.js';

export const priorityClassPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column(
      'Value',
      'integer',
      'The value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
    ),
    column('Global-Default', 'boolean', 'Whether this priority class is the one pods without a priorityClassName get.'),
    AGE_COLUMN,
    column('PreemptionPolicy', 'string', 'The Policy for preempting pods with lower priority.'),
  ],
  row: (pc, now) => [pc.metadata.name ?? '', numberAt(pc, 'value'), at(pc, 'globalDefault') === true, age(pc, now), stringAt(pc, 'preemptionPolicy')],
};

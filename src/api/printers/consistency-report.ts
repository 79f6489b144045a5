// `kubectl get consistencyreports`: one data-check round per row.
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, stringAt } from './read.js';

function count(value: unknown): number | string {
  return typeof value === 'number' && Number.isFinite(value) ? value : '<none>';
}

export const consistencyReportPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Phase', 'string', 'Running, Completed, Skipped or Failed.'),
    column('Findings', 'integer', 'How many inconsistencies the round found.'),
    column('Repaired', 'integer', 'How many of them were repaired.'),
    AGE_COLUMN,
  ],
  row(report, now) {
    return [
      report.metadata.name ?? '',
      stringAt(report, 'status', 'phase') || 'Pending',
      count(at(report, 'status', 'findingCount')),
      count(at(report, 'status', 'repairedCount')),
      age(report, now),
    ];
  },
};

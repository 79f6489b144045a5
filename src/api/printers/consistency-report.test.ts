import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { consistencyReportPrinter } from './consistency-report.js';
import { ago, cells, columnNames, NOW, object } from '../../../test/support/api/printer-fixtures.js';

describe('ConsistencyReport printer', () => {
  it('shows NAME PHASE FINDINGS REPAIRED AGE', () => {
    assert.deepEqual(columnNames(consistencyReportPrinter).normal, ['Name', 'Phase', 'Findings', 'Repaired', 'Age']);
    const report = object(
      'drover.dev/v1',
      'ConsistencyReport',
      { name: 'check-abcde', creationTimestamp: ago('5m') },
      {
        status: { phase: 'Completed', findingCount: 4, repairedCount: 1 },
      },
    );
    assert.deepEqual(consistencyReportPrinter.row(report, NOW), ['check-abcde', 'Completed', 4, 1, '5m']);
    assert.deepEqual(cells(consistencyReportPrinter, object('drover.dev/v1', 'ConsistencyReport', { name: 'new', creationTimestamp: ago('2s') })), {
      Name: 'new',
      Phase: 'Pending',
      Findings: '<none>',
      Repaired: '<none>',
      Age: '2s',
    });
  });
});

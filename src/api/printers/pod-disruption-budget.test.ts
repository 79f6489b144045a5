import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { podDisruptionBudgetPrinter } from './pod-disruption-budget.js';
import { cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

describe('pod disruption budget printer', () => {
  it('has the kubectl columns', () => {
    assert.deepEqual(columnNames(podDisruptionBudgetPrinter), {
      normal: ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
      wide: [],
    });
  });

  it('prints the bound that is set, N/A for the other, and 0 before the controller wrote a status', () => {
    const percent = object('policy/v1', 'PodDisruptionBudget', { name: 'web' }, { spec: { maxUnavailable: '25%' }, status: { disruptionsAllowed: 2 } });
    assert.deepEqual(cells(podDisruptionBudgetPrinter, percent), {
      Name: 'web',
      'Min Available': 'N/A',
      'Max Unavailable': '25%',
      'Allowed Disruptions': 2,
      Age: '10m',
    });
    const fresh = object('policy/v1', 'PodDisruptionBudget', { name: 'db' }, { spec: { minAvailable: 1 } });
    assert.deepEqual(cells(podDisruptionBudgetPrinter, fresh), {
      Name: 'db',
      'Min Available': '1',
      'Max Unavailable': 'N/A',
      'Allowed Disruptions': 0,
      Age: '10m',
    });
  });
});

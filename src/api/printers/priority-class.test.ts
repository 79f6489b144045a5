import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { priorityClassPrinter } from './priority-class.js';
import { cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

describe('priority class printer', () => {
  it('has the kubectl 1.32 columns, PreemptionPolicy after Age', () => {
    assert.deepEqual(columnNames(priorityClassPrinter), { normal: ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'], wide: [] });
  });

  it('prints the value, whether it is the default, and the policy', () => {
    const pc = object('scheduling.k8s.io/v1', 'PriorityClass', { name: 'high' }, { value: 1000, globalDefault: true, preemptionPolicy: 'Never' });
    assert.deepEqual(cells(priorityClassPrinter, pc), { Name: 'high', Value: 1000, 'Global-Default': true, Age: '10m', PreemptionPolicy: 'Never' });
    const plain = object('scheduling.k8s.io/v1', 'PriorityClass', { name: 'low' }, { value: -5 });
    assert.deepEqual(cells(priorityClassPrinter, plain), { Name: 'low', Value: -5, 'Global-Default': false, Age: '10m', PreemptionPolicy: '' });
  });
});

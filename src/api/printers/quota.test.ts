import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { limitRangePrinter, resourceQuotaPrinter } from './quota.js';
import { ago, NOW, object } from '../../../test/support/api/printer-fixtures.js';

describe('quota printers', () => {
  test('ResourceQuota: used/hard from the status, limits.* under LIMIT, the rest under REQUEST', () => {
    const quota = object(
      'v1',
      'ResourceQuota',
      { name: 'q', namespace: 'dev', creationTimestamp: ago('5m') },
      {
        spec: { hard: { pods: '2' } },
        status: {
          hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '2Gi', 'count/deployments.apps': '3' },
          used: { pods: '1', 'requests.cpu': '100m' },
        },
      },
    );
    assert.deepEqual(
      resourceQuotaPrinter.columns.map((c) => c.name),
      ['Name', 'Age', 'Request', 'Limit'],
    );
    assert.deepEqual(resourceQuotaPrinter.row(quota, NOW), ['q', '5m', 'count/deployments.apps: 0/3, pods: 1/2, requests.cpu: 100m/1', 'limits.memory: 0/2Gi']);
  });

  test('LimitRange: NAME and CREATED AT', () => {
    const created = ago('1h');
    const limitRange = object('v1', 'LimitRange', { name: 'lr', namespace: 'dev', creationTimestamp: created });
    assert.deepEqual(
      limitRangePrinter.columns.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Created At', 'date'],
      ],
    );
    assert.deepEqual(limitRangePrinter.row(limitRange, NOW), ['lr', created]);
  });
});

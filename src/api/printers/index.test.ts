import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPrinter, printerFor } from './index.js';
import { transactionPrinter } from './transaction.js';
import { ago, cells, columnNames, NOW, object } from '../../../test/support/api/printer-fixtures.js';

const KINDS = [
  'Pod',
  'Service',
  'Endpoints',
  'Node',
  'Namespace',
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Lease',
  'Event',
  'Deployment',
  'ReplicaSet',
  'DaemonSet',
  'Job',
  'Transaction',
];

describe('printerFor', () => {
  it('has a printer for every listed kind, and NAME + AGE for the rest', () => {
    for (const kind of KINDS) assert.notEqual(printerFor(kind), defaultPrinter, kind);
    assert.equal(printerFor('TrainingJob'), defaultPrinter);
    assert.equal(printerFor('constructor'), defaultPrinter);
    assert.deepEqual(columnNames(defaultPrinter), { normal: ['Name', 'Age'], wide: [] });
    assert.deepEqual(cells(defaultPrinter, object('example.com/v1', 'Widget', { name: 'w', creationTimestamp: ago('5d') })), { Name: 'w', Age: '5d' });
  });

  it('gives one cell per column, even for bare objects', () => {
    for (const kind of KINDS) {
      const printer = printerFor(kind);
      const row = printer.row({ apiVersion: 'v1', kind, metadata: { name: 'x' } }, NOW);
      assert.equal(row.length, printer.columns.length, kind);
      assert.equal(printer.columns.filter((c) => c.format === 'name').length, 1, kind);
    }
  });

  it('types every column as kubectl expects', () => {
    for (const kind of KINDS) {
      for (const column of printerFor(kind).columns) {
        assert.ok(['string', 'integer', 'number', 'boolean', 'date'].includes(column.type), `${kind}.${column.name}`);
        assert.ok(column.description.length > 0, `${kind}.${column.name}`);
        assert.ok(column.priority === 0 || column.priority === 1, `${kind}.${column.name}`);
      }
    }
  });
});

describe('transaction printer', () => {
  it('prints NAME TARGET OPERATION PHASE PROGRESS AGE', () => {
    assert.deepEqual(columnNames(transactionPrinter), { normal: ['Name', 'Target', 'Operation', 'Phase', 'Progress', 'Age'], wide: [] });
    const tx = object(
      'drover.dev/v1',
      'Transaction',
      { name: 'scale-web-42', namespace: 'default', creationTimestamp: ago('90s') },
      {
        spec: { target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, operation: 'Scale', deadlineSeconds: 300 },
        status: { phase: 'Running', progress: '2/5' },
      },
    );
    assert.deepEqual(cells(transactionPrinter, tx), {
      Name: 'scale-web-42',
      Target: 'Deployment/web',
      Operation: 'Scale',
      Phase: 'Running',
      Progress: '2/5',
      Age: '90s',
    });
  });

  it('prints <none> for what is not set yet', () => {
    const tx = object('drover.dev/v1', 'Transaction', { name: 'new' }, { spec: { target: { name: 'web' } } });
    const r = cells(transactionPrinter, tx);
    assert.deepEqual([r['Target'], r['Operation'], r['Phase'], r['Progress']], ['web', '<none>', '<none>', '<none>']);
    const numeric = object('drover.dev/v1', 'Transaction', { name: 'n' }, { status: { progress: 40 } });
    assert.deepEqual([cells(transactionPrinter, numeric)['Target'], cells(transactionPrinter, numeric)['Progress']], ['<none>', '40']);
  });
});

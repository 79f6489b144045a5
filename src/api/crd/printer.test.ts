import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../meta.js';
import { customResourcePrinter } from './printer.js';

const now = new Date('2024-01-01T01:00:00Z');
const widget: KubeObject = {
  apiVersion: 'shop.example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { replicas: 3, ports: [{ name: 'a' }, { name: 'b' }] },
  status: { since: '2024-01-01T00:30:00Z' },
};

test('without printer columns: NAME and AGE', () => {
  const printer = customResourcePrinter([]);
  assert.deepEqual(
    printer.columns.map((c) => c.name),
    ['Name', 'Age'],
  );
  assert.deepEqual(printer.row(widget, now), ['w', '60m']);
});

test('printer columns: values by JSON path, dates as ages, several values joined, missing ones null', () => {
  const printer = customResourcePrinter([
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ports', type: 'string', jsonPath: '.spec.ports[*].name', priority: 1 },
    { name: 'Since', type: 'date', jsonPath: '.status.since' },
    { name: 'Ready', type: 'string', jsonPath: '.status.ready' },
  ]);
  assert.deepEqual(
    printer.columns.map((c) => [c.name, c.priority]),
    [
      ['Name', 0],
      ['Replicas', 0],
      ['Ports', 1],
      ['Since', 0],
      ['Ready', 0],
    ],
  );
  assert.deepEqual(printer.row(widget, now), ['w', 3, 'a,b', '30m', null]);
});

// Printers for LimitRange (NAME, CREATED AT) and ResourceQuota (NAME, AGE, REQUEST, LIMIT), as
// Kubernetes prints them: the quota's columns list `resource: used/hard` from its status, the
// limits.* resources under LIMIT and everything else under REQUEST.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { formatQuantity, parseQuantity, ZERO } from '../quota/quantity.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { recordAt } from './read.js';

export const limitRangePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.')],
  row: (object) => [object.metadata.name ?? '', object.metadata.creationTimestamp ?? ''],
};

/** A quantity of the status as Kubernetes' Quantity.String() prints it ("0" when missing). */
function shown(value: unknown): string {
  return formatQuantity(parseQuantity(value) ?? ZERO);
}

function usageColumns(quota: KubeObject): [string, string] {
  const hard = recordAt(quota, 'status', 'hard');
  const used = recordAt(quota, 'status', 'used');
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const cell = `${name}: ${shown(used[name])}/${shown(hard[name])}`;
    (name.split('.').length > 1 && name.startsWith('limits.') ? limits : requests).push(cell);
  }
  return [requests.join(', '), limits.join(', ')];
}

export const resourceQuotaPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  row: (object, now) => [object.metadata.name ?? '', age(object, now), ...usageColumns(object)],
};

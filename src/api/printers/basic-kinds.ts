// Printers for kinds with one or two simple columns: Namespace, ConfigMap, Secret,
// ServiceAccount and Lease.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { listAt, recordAt, stringAt } from './read.js';

function entries(object: KubeObject, field: string): number {
  return Object.keys(recordAt(object, field)).length;
}

export const namespacePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  row: (ns, now) => [ns.metadata.name ?? '', stringAt(ns, 'status', 'phase'), age(ns, now)],
};

export const configMapPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Data', 'string', 'Number of entries in data and binaryData.'), AGE_COLUMN],
  row: (cm, now) => [cm.metadata.name ?? '', entries(cm, 'data') + entries(cm, 'binaryData'), age(cm, now)],
};

export const secretPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'string', 'Number of entries in data.'),
    AGE_COLUMN,
  ],
  row: (secret, now) => [secret.metadata.name ?? '', stringAt(secret, 'type'), entries(secret, 'data'), age(secret, now)],
};

export const serviceAccountPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Secrets', 'string', 'Number of secrets listed for this service account.'), AGE_COLUMN],
  row: (sa, now) => [sa.metadata.name ?? '', listAt(sa, 'secrets').length, age(sa, now)],
};

export const leasePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'), AGE_COLUMN],
  row: (lease, now) => [lease.metadata.name ?? '', stringAt(lease, 'spec', 'holderIdentity'), age(lease, now)],
};

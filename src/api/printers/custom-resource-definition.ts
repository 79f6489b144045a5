// `kubectl get crd`: NAME and CREATED AT, the default table Kubernetes gives kinds without a
// printer of their own (the creation time as a timestamp, not an age).
import type { TablePrinter } from '../resource.js';
import { NAME_COLUMN, column } from './columns.js';

export const customResourceDefinitionPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    { ...column('Created At', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.'), format: '' },
  ],
  row: (crd) => [crd.metadata.name ?? '', crd.metadata.creationTimestamp ?? ''],
};

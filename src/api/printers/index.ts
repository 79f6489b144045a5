// Table printers for `kubectl get`, one per kind. (Placeholder: the printers work replaces this.)
import type { TablePrinter } from '../resource.js';

const defaultPrinter: TablePrinter = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: 'Name of the object', priority: 0 },
  ],
  row: (object) => [object.metadata.name],
};

/** The printer for a kind, e.g. printerFor('Pod'). */
export function printerFor(_kind: string): TablePrinter {
  return defaultPrinter;
}

// Table columns of a custom resource: its version's additionalPrinterColumns read with their
// JSON paths, or NAME and AGE when it has none, as Kubernetes' CRD table convertor does. Date
// cells are shown as ages; several values a path reaches are joined with commas.
import type { KubeObject } from '../meta.js';
import type { TableColumn, TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN } from '../printers/columns.js';
import { age, since } from '../printers/format.js';
import { isObject } from '../meta.js';
import { readJsonPath } from './json-path.js';

export interface PrinterColumn {
  name: string;
  type: TableColumn['type'];
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export function customResourcePrinter(columns: readonly PrinterColumn[]): TablePrinter {
  if (columns.length === 0) {
    return { columns: [NAME_COLUMN, AGE_COLUMN], row: (object, now) => [object.metadata.name ?? '', age(object, now)] };
  }
  const described: TableColumn[] = columns.map((column) => ({
    name: column.name,
    type: column.type,
    ...(column.format ? { format: column.format } : {}),
    description: column.description ?? '',
    priority: column.priority ?? 0,
  }));
  return {
    columns: [NAME_COLUMN, ...described],
    row: (object, now) => [object.metadata.name ?? '', ...columns.map((column) => cell(object, column, now))],
  };
}

function cell(object: KubeObject, column: PrinterColumn, now: Date): unknown {
  const values = readJsonPath(object, column.jsonPath);
  if (values.length === 0) return null;
  if (column.type === 'date') return typeof values[0] === 'string' ? since(values[0], now) : null;
  if (values.length === 1 && !isObject(values[0]) && !Array.isArray(values[0])) return values[0];
  return values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(',');
}

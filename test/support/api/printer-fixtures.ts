// Shared fixtures for the printer tests: a fixed clock and object builders.
import type { KubeObject, ObjectMeta } from '../../../src/api/meta.js';
import type { TablePrinter } from '../../../src/api/resource.js';

export const NOW = new Date('2025-03-01T12:00:00Z');

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An RFC 3339 timestamp that lies `amount` before NOW, e.g. ago('5m'). */
export function ago(amount: string): string {
  const match = /^(\d+)(s|m|h|d)$/.exec(amount);
  if (!match) throw new Error(`bad duration ${amount}`);
  const unit = { s: SECOND, m: MINUTE, h: HOUR, d: DAY }[match[2] as 's' | 'm' | 'h' | 'd'];
  return new Date(NOW.getTime() - Number(match[1]) * unit).toISOString().replace('.000Z', 'Z');
}

export function object(apiVersion: string, kind: string, metadata: ObjectMeta, fields: Record<string, unknown> = {}): KubeObject {
  return { apiVersion, kind, metadata: { creationTimestamp: ago('10m'), ...metadata }, ...fields };
}

/** The row as a map from column name to cell, for readable assertions. */
export function cells(printer: TablePrinter, obj: KubeObject): Record<string, unknown> {
  const row = printer.row(obj, NOW);
  if (row.length !== printer.columns.length) {
    throw new Error(`row has ${row.length} cells for ${printer.columns.length} columns`);
  }
  return Object.fromEntries(printer.columns.map((column, i) => [column.name, row[i]]));
}

/** Column names, and the names of the `-o wide` ones. */
export function columnNames(printer: TablePrinter): { normal: string[]; wide: string[] } {
  return {
    normal: printer.columns.filter((c) => c.priority === 0).map((c) => c.name),
    wide: printer.columns.filter((c) => c.priority > 0).map((c) => c.name),
  };
}

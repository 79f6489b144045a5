// meta.k8s.io/v1 Table responses for `kubectl get`: the kind's printer decides the columns,
// the server computes the cells, kubectl only lays them out.
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { badRequest } from './errors.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(`includeObject: Unsupported value: "${value}": supported values: "None", "Metadata", "Object"`);
}

function rowObject(object: KubeObject, include: IncludeObject): unknown {
  if (include === 'Object') return object;
  if (include === 'None') return undefined;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

export function toTable(
  def: ResourceDefinition,
  objects: KubeObject[],
  listMeta: Record<string, unknown>,
  include: IncludeObject,
  withColumns = true,
): Record<string, unknown> {
  const now = new Date();
  const printer = def.table;
  const rows = objects.map((object) => {
    const row: Record<string, unknown> = { cells: printer.row(object, now) };
    const embedded = rowObject(object, include);
    if (embedded !== undefined) row['object'] = embedded;
    return row;
  });
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: listMeta };
  if (withColumns) table['columnDefinitions'] = printer.columns;
  table['rows'] = rows;
  return table;
}

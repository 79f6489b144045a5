// Column definitions in the shape of meta.k8s.io/v1 TableColumnDefinition. Names are spelled as
// Kubernetes spells them ("Nominated Node"); kubectl upper-cases them for display.
import type { TableColumn } from '../resource.js';

type CellType = TableColumn['type'];

export function column(name: string, type: CellType, description: string, priority = 0): TableColumn {
  return { name, type, description, priority };
}

/** Shown only with `-o wide`. */
export function wide(name: string, type: CellType, description: string): TableColumn {
  return column(name, type, description, 1);
}

export const NAME_COLUMN: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.',
  priority: 0,
};

export const AGE_COLUMN: TableColumn = column('Age', 'string', 'CreationTimestamp is a timestamp representing the server time when this object was created.');

/** The wide Containers / Images / Selector trio that every workload kind shares. */
export const TEMPLATE_COLUMNS: readonly TableColumn[] = [
  wide('Containers', 'string', 'Names of each container in the template.'),
  wide('Images', 'string', 'Images referenced by each container in the template.'),
  wide('Selector', 'string', 'Label query over pods that should match the replica count.'),
];

// Printers of StatefulSet, ControllerRevision and ReplicationController, as Kubernetes'
// printStatefulSet, printControllerRevision and printReplicationController.
import { parseApiVersion } from '../group-version.js';
import type { KubeObject } from '../meta.js';
import { controllerRefOf } from '../owner-references.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, TEMPLATE_COLUMNS, column, wide } from './columns.js';
import { age, containerCells, formatLabels } from './format.js';
import { at, numberAt, recordAt, stringMapAt } from './read.js';

// Defaulting sets spec.replicas to 1 when omitted, so an unset value means 1.
function desiredReplicas(object: KubeObject): number {
  const replicas = at(object, 'spec', 'replicas');
  return typeof replicas === 'number' ? replicas : 1;
}

export const statefulSetPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    AGE_COLUMN,
    wide('Containers', 'string', 'Names of each container in the template.'),
    wide('Images', 'string', 'Images referenced by each container in the template.'),
  ],
  row(sts, now) {
    const { names, images } = containerCells(recordAt(sts, 'spec', 'template', 'spec'));
    return [sts.metadata.name ?? '', `${numberAt(sts, 'status', 'readyReplicas')}/${desiredReplicas(sts)}`, age(sts, now), names, images];
  },
};

/** `daemonset.apps/web`: the kind and group of the controller, lower-cased, and its name. */
function controllerCell(object: KubeObject): string {
  const ref = controllerRefOf(object);
  if (!ref) return '<none>';
  const { group } = parseApiVersion(ref.apiVersion);
  return `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
}

export const controllerRevisionPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
    AGE_COLUMN,
  ],
  row(revision, now) {
    return [revision.metadata.name ?? '', controllerCell(revision), numberAt(revision, 'revision'), age(revision, now)];
  },
};

export const replicationControllerPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(rc, now) {
    const { names, images } = containerCells(recordAt(rc, 'spec', 'template', 'spec'));
    return [
      rc.metadata.name ?? '',
      desiredReplicas(rc),
      numberAt(rc, 'status', 'replicas'),
      numberAt(rc, 'status', 'readyReplicas'),
      age(rc, now),
      names,
      images,
      formatLabels(stringMapAt(rc, 'spec', 'selector')),
    ];
  },
};

// Printers for the workload controllers: Deployment, ReplicaSet, DaemonSet and Job.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, TEMPLATE_COLUMNS, column } from './columns.js';
import { age, containerCells, formatLabels, formatLabelSelector, humanDuration, parseTimestamp, selectorText } from './format.js';
import { at, listAt, numberAt, recordAt, stringAt, stringMapAt } from './read.js';

function podSpec(object: KubeObject): unknown {
  return recordAt(object, 'spec', 'template', 'spec');
}

// Defaulting sets spec.replicas to 1 when omitted, so an unset value means 1.
function desiredReplicas(object: KubeObject): number {
  const replicas = at(object, 'spec', 'replicas');
  return typeof replicas === 'number' ? replicas : 1;
}

/** Containers, images and selector cells of the wide columns. */
function templateCells(object: KubeObject, selector: string): string[] {
  const { names, images } = containerCells(podSpec(object));
  return [names, images, selector];
}

export const deploymentPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(deployment, now) {
    // Kubernetes prints a Deployment's selector bare: '' when empty, `<invalid>` when broken.
    const selector = selectorText(at(deployment, 'spec', 'selector')) ?? '<invalid>';
    return [
      deployment.metadata.name ?? '',
      `${numberAt(deployment, 'status', 'readyReplicas')}/${desiredReplicas(deployment)}`,
      numberAt(deployment, 'status', 'updatedReplicas'),
      numberAt(deployment, 'status', 'availableReplicas'),
      age(deployment, now),
      ...templateCells(deployment, selector),
    ];
  },
};

export const replicaSetPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(rs, now) {
    return [
      rs.metadata.name ?? '',
      desiredReplicas(rs),
      numberAt(rs, 'status', 'replicas'),
      numberAt(rs, 'status', 'readyReplicas'),
      age(rs, now),
      ...templateCells(rs, formatLabelSelector(at(rs, 'spec', 'selector'))),
    ];
  },
};

export const daemonSetPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod.'),
    column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
    column('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod.'),
    column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.'),
    column('Node Selector', 'string', 'NodeSelector is a selector which must be true for the pod to fit on a node.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(ds, now) {
    const status = (field: string): number => numberAt(ds, 'status', field);
    return [
      ds.metadata.name ?? '',
      status('desiredNumberScheduled'),
      status('currentNumberScheduled'),
      status('numberReady'),
      status('updatedNumberScheduled'),
      status('numberAvailable'),
      formatLabels(stringMapAt(podSpec(ds), 'nodeSelector')),
      age(ds, now),
      ...templateCells(ds, formatLabelSelector(at(ds, 'spec', 'selector'))),
    ];
  },
};

/** Whether the first condition of `type` is True (Kubernetes' hasJobCondition). */
function jobCondition(job: KubeObject, type: string): boolean {
  const condition = listAt(job, 'status', 'conditions').find((c) => stringAt(c, 'type') === type);
  return condition !== undefined && stringAt(condition, 'status') === 'True';
}

export function jobStatus(job: KubeObject): string {
  if (jobCondition(job, 'Complete')) return 'Complete';
  if (jobCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (jobCondition(job, 'Suspended')) return 'Suspended';
  if (jobCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/** `2/3`; without spec.completions, `1/1` or `0/1 of 4` for a parallel work queue. */
export function jobCompletions(job: KubeObject): string {
  const succeeded = numberAt(job, 'status', 'succeeded');
  const completions = at(job, 'spec', 'completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = numberAt(job, 'spec', 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** Run time so far, or start to completion; '' before the job starts. */
export function jobDuration(job: KubeObject, now: Date): string {
  const start = parseTimestamp(at(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const end = parseTimestamp(at(job, 'status', 'completionTime')) ?? now.getTime();
  return humanDuration(end - start);
}

export const jobPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'The number of pods which reached phase Succeeded, of those required.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(job, now) {
    return [
      job.metadata.name ?? '',
      jobStatus(job),
      jobCompletions(job),
      jobDuration(job, now),
      age(job, now),
      ...templateCells(job, formatLabelSelector(at(job, 'spec', 'selector'))),
    ];
  },
};

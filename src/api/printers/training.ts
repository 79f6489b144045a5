// `kubectl get pytorchjobs,tfjobs` (NAME STATE AGE, as Kubeflow's CRDs print them: the type of
// the last condition) and `kubectl get podgroups` (NAME PHASE MINMEMBER RUNNING AGE).
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { age } from './format.js';
import { at, listAt, numberAt, stringAt } from './read.js';

function currentState(job: KubeObject): string {
  const conditions = listAt(job, 'status', 'conditions');
  const last = conditions[conditions.length - 1];
  return typeof last === 'object' && last !== null && typeof (last as { type?: unknown }).type === 'string' ? (last as { type: string }).type : '';
}

export const trainingJobPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('State', 'string', "The type of the job's latest condition: Created, Running, Restarting, Succeeded, Suspended or Failed."),
    AGE_COLUMN,
  ],
  row: (job, now) => [job.metadata.name ?? '', currentState(job), age(job, now)],
};

export const podGroupPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Phase', 'string', 'Pending, Scheduling, Scheduled, Running, Finished or Failed.'),
    column('MinMember', 'integer', 'Pods that must have places at once before any is bound.'),
    column('Running', 'integer', 'Members running.'),
    AGE_COLUMN,
  ],
  row(group, now) {
    const minMember = at(group, 'spec', 'minMember');
    return [
      group.metadata.name ?? '',
      stringAt(group, 'status', 'phase') || 'Pending',
      typeof minMember === 'number' ? minMember : 1,
      numberAt(group, 'status', 'running'),
      age(group, now),
    ];
  },
};

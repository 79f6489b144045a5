// The CronJob printer (Kubernetes' printCronJob): schedule, zone, suspension, running Jobs and
// the last start; the wide columns describe the Job template.
import type { TablePrinter } from '../resource.js';
import { AGE_COLUMN, NAME_COLUMN, TEMPLATE_COLUMNS, column } from './columns.js';
import { age, containerCells, formatLabelSelector, since } from './format.js';
import { at, listAt, recordAt } from './read.js';

/** Go's printBoolPtr: `<unset>` for nil. */
function boolCell(value: unknown): string {
  if (typeof value !== 'boolean') return '<unset>';
  return value ? 'True' : 'False';
}

export const cronJobPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Schedule', 'string', 'The schedule in Cron format.'),
    column('Timezone', 'string', 'The time zone name for the given schedule.'),
    column('Suspend', 'boolean', 'Whether subsequent executions are suspended.'),
    column('Active', 'integer', 'Pointers to currently running jobs.'),
    column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
  ],
  row(cronJob, now) {
    const timeZone = at(cronJob, 'spec', 'timeZone');
    const lastSchedule = at(cronJob, 'status', 'lastScheduleTime');
    const { names, images } = containerCells(recordAt(cronJob, 'spec', 'jobTemplate', 'spec', 'template', 'spec'));
    return [
      cronJob.metadata.name ?? '',
      String(at(cronJob, 'spec', 'schedule') ?? ''),
      typeof timeZone === 'string' ? timeZone : '<none>',
      boolCell(at(cronJob, 'spec', 'suspend')),
      listAt(cronJob, 'status', 'active').length,
      lastSchedule ? since(lastSchedule, now) : '<none>',
      age(cronJob, now),
      names,
      images,
      formatLabelSelector(at(cronJob, 'spec', 'jobTemplate', 'spec', 'selector')),
    ];
  },
};

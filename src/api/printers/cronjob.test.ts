import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronJobPrinter } from './cronjob.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

describe('cronjob printer', () => {
  it('has the kubectl columns', () => {
    assert.deepEqual(columnNames(cronJobPrinter), {
      normal: ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age'],
      wide: ['Containers', 'Images', 'Selector'],
    });
  });

  it('prints the schedule, zone, suspension and runs', () => {
    const template = { spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox:1' }] } } } };
    const fresh = object('batch/v1', 'CronJob', { name: 'nightly' }, { spec: { schedule: '0 3 * * *', suspend: false, jobTemplate: template } });
    assert.deepEqual(cells(cronJobPrinter, fresh), {
      Name: 'nightly',
      Schedule: '0 3 * * *',
      Timezone: '<none>',
      Suspend: 'False',
      Active: 0,
      'Last Schedule': '<none>',
      Age: '10m',
      Containers: 'main',
      Images: 'busybox:1',
      Selector: '<none>',
    });
    const running = object(
      'batch/v1',
      'CronJob',
      { name: 'nightly' },
      {
        spec: { schedule: '@hourly', timeZone: 'Europe/Berlin', suspend: true, jobTemplate: template },
        status: { active: [{ name: 'nightly-1' }], lastScheduleTime: ago('2m') },
      },
    );
    assert.deepEqual(cells(cronJobPrinter, running), {
      Name: 'nightly',
      Schedule: '@hourly',
      Timezone: 'Europe/Berlin',
      Suspend: 'True',
      Active: 1,
      'Last Schedule': '2m',
      Age: '10m',
      Containers: 'main',
      Images: 'busybox:1',
      Selector: '<none>',
    });
  });
});

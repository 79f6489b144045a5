import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findByKind } from '../registry.js';
import type { KubeObject } from '../meta.js';
import { validateObject } from './index.js';

function cronJob(spec: Record<string, unknown>, name = 'nightly'): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: {
      schedule: '0 3 * * *',
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox' }] } } } },
      ...spec,
    },
  };
}

/** Defaults then validates, as the server does; "field: message" lines. */
function check(object: KubeObject, old?: KubeObject): string[] {
  const def = findByKind('batch', 'v1', 'CronJob');
  assert.ok(def);
  def.applyDefaults(object);
  if (old) def.applyDefaults(old);
  return validateObject(def, object, old).map((e) => `${e.field}: ${e.message}`);
}

describe('CronJob validation', () => {
  it('accepts schedules, macros and zones, and defaults the policies', () => {
    const object = cronJob({ schedule: '@weekly', timeZone: 'Europe/Berlin' });
    assert.deepEqual(check(object), []);
    const spec = object['spec'] as Record<string, unknown>;
    assert.deepEqual([spec['concurrencyPolicy'], spec['suspend'], spec['successfulJobsHistoryLimit'], spec['failedJobsHistoryLimit']], ['Allow', false, 3, 1]);
    assert.equal(
      (spec['jobTemplate'] as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec['dnsPolicy'],
      'ClusterFirst',
      'the pod template is defaulted',
    );
    assert.deepEqual(check(cronJob({ schedule: '*/5 1-3,22 ? jan-jun mon-fri' })), []);
  });

  it('rejects bad schedules and zones on the fields Kubernetes names', () => {
    assert.deepEqual(check(cronJob({ schedule: '61 * * * *' })), ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']);
    assert.deepEqual(check(cronJob({ schedule: 'TZ=UTC 0 3 * * *' })), [
      'spec.schedule: Invalid value: "TZ=UTC 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]);
    assert.deepEqual(check(cronJob({ schedule: 'CRON_TZ=UTC 0 3 * * *', timeZone: 'UTC' })), [
      'spec.schedule: Invalid value: "CRON_TZ=UTC 0 3 * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
    assert.deepEqual(check(cronJob({ timeZone: 'Mars/Olympus' })), ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']);
    assert.deepEqual(check(cronJob({ timeZone: 'Local' })), [
      'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    ]);
  });

  it('checks the limits, the name and the job template', () => {
    assert.deepEqual(check(cronJob({ startingDeadlineSeconds: -1 })), ['spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0']);
    assert.deepEqual(check(cronJob({}, 'x'.repeat(53))), [`metadata.name: Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`]);
    const always = cronJob({ jobTemplate: { spec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'main', image: 'busybox' }] } } } } });
    assert.deepEqual(check(always).filter((line) => line.startsWith('spec.jobTemplate.spec.template.spec.restartPolicy')).length, 1);
    const selector = cronJob({
      jobTemplate: {
        spec: {
          selector: { matchLabels: { a: 'b' } },
          template: { metadata: { labels: { a: 'b' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
        },
      },
    });
    assert.ok(check(selector).some((line) => line.startsWith('spec.jobTemplate.spec.selector: Invalid value')));
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter } from './workloads.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'app', image: 'drover-test/busybox:1' },
      { name: 'log', image: 'drover-test/busybox:2' },
    ],
  },
};
const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'track', operator: 'NotIn', values: ['canary'] }] };

describe('deployment printer', () => {
  it('has the kubectl columns', () => {
    assert.deepEqual(columnNames(deploymentPrinter), {
      normal: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age'],
      wide: ['Containers', 'Images', 'Selector'],
    });
  });

  it('prints replica counts and the template', () => {
    const d = object(
      'apps/v1',
      'Deployment',
      { name: 'web' },
      {
        spec: { replicas: 3, selector, template },
        status: { replicas: 3, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 1 },
      },
    );
    assert.deepEqual(cells(deploymentPrinter, d), {
      Name: 'web',
      Ready: '2/3',
      'Up-to-date': 2,
      Available: 1,
      Age: '10m',
      Containers: 'app,log',
      Images: 'drover-test/busybox:1,drover-test/busybox:2',
      Selector: 'app=web,track notin (canary)',
    });
  });

  it('prints zeros for a new deployment and selectors as Kubernetes does', () => {
    const fresh = object('apps/v1', 'Deployment', { name: 'new' }, { spec: { selector: {}, template } });
    const r = cells(deploymentPrinter, fresh);
    assert.deepEqual([r['Ready'], r['Up-to-date'], r['Available'], r['Selector']], ['0/1', 0, 0, '']);
    const broken = object('apps/v1', 'Deployment', { name: 'bad' }, { spec: { replicas: 0, selector: { matchLabels: { app: '-' } }, template } });
    assert.deepEqual([cells(deploymentPrinter, broken)['Ready'], cells(deploymentPrinter, broken)['Selector']], ['0/0', '<invalid>']);
  });
});

describe('replicaset printer', () => {
  it('prints desired, current and ready', () => {
    assert.deepEqual(columnNames(replicaSetPrinter).normal, ['Name', 'Desired', 'Current', 'Ready', 'Age']);
    const rs = object(
      'apps/v1',
      'ReplicaSet',
      { name: 'web-7d4b9' },
      {
        spec: { replicas: 3, selector: { matchLabels: { app: 'web', 'pod-template-hash': '7d4b9' } }, template },
        status: { replicas: 3, readyReplicas: 1 },
      },
    );
    assert.deepEqual(cells(replicaSetPrinter, rs), {
      Name: 'web-7d4b9',
      Desired: 3,
      Current: 3,
      Ready: 1,
      Age: '10m',
      Containers: 'app,log',
      Images: 'drover-test/busybox:1,drover-test/busybox:2',
      Selector: 'app=web,pod-template-hash=7d4b9',
    });
    const none = object('apps/v1', 'ReplicaSet', { name: 'x' }, { spec: { replicas: 0, template } });
    assert.deepEqual([cells(replicaSetPrinter, none)['Desired'], cells(replicaSetPrinter, none)['Selector']], [0, '<none>']);
  });
});

describe('daemonset printer', () => {
  it('prints scheduling counts and the node selector', () => {
    assert.deepEqual(columnNames(daemonSetPrinter).normal, ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age']);
    const ds = object(
      'apps/v1',
      'DaemonSet',
      { name: 'log-agent', creationTimestamp: ago('5h') },
      {
        spec: {
          selector: { matchLabels: { app: 'log' } },
          template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'ssd' } } },
        },
        status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
      },
    );
    assert.deepEqual(cells(daemonSetPrinter, ds), {
      Name: 'log-agent',
      Desired: 3,
      Current: 3,
      Ready: 2,
      'Up-to-date': 3,
      Available: 2,
      'Node Selector': 'disk=ssd,kubernetes.io/os=linux',
      Age: '5h',
      Containers: 'app,log',
      Images: 'drover-test/busybox:1,drover-test/busybox:2',
      Selector: 'app=log',
    });
    const plain = object('apps/v1', 'DaemonSet', { name: 'x' }, { spec: { template } });
    assert.deepEqual([cells(daemonSetPrinter, plain)['Node Selector'], cells(daemonSetPrinter, plain)['Desired']], ['<none>', 0]);
  });
});

describe('job printer', () => {
  const job = (spec: Record<string, unknown>, status: Record<string, unknown>, metadata: Record<string, unknown> = {}) =>
    object(
      'batch/v1',
      'Job',
      { name: 'pi', ...metadata },
      { spec: { template, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } }, ...spec }, status },
    );

  it('has the kubectl columns', () => {
    assert.deepEqual(columnNames(jobPrinter), {
      normal: ['Name', 'Status', 'Completions', 'Duration', 'Age'],
      wide: ['Containers', 'Images', 'Selector'],
    });
  });

  it('prints a running job', () => {
    const r = cells(jobPrinter, job({ completions: 3, parallelism: 1 }, { startTime: ago('3m'), active: 1, succeeded: 1 }));
    assert.deepEqual(r, {
      Name: 'pi',
      Status: 'Running',
      Completions: '1/3',
      Duration: '3m',
      Age: '10m',
      Containers: 'app,log',
      Images: 'drover-test/busybox:1,drover-test/busybox:2',
      Selector: 'batch.kubernetes.io/controller-uid=abc',
    });
  });

  it('prints a completed job with its run time', () => {
    const done = job(
      { completions: 1 },
      {
        startTime: '2025-03-01T11:50:00Z',
        completionTime: '2025-03-01T11:50:42Z',
        succeeded: 1,
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True' },
          { type: 'Complete', status: 'True' },
        ],
      },
    );
    assert.deepEqual(
      [cells(jobPrinter, done)['Status'], cells(jobPrinter, done)['Completions'], cells(jobPrinter, done)['Duration']],
      ['Complete', '1/1', '42s'],
    );
  });

  it('prints Failed, Terminating, Suspended and FailureTarget', () => {
    const failed = job({}, { startTime: ago('1h'), conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] });
    assert.equal(cells(jobPrinter, failed)['Status'], 'Failed');
    const deleting = job({}, { startTime: ago('1h') }, { deletionTimestamp: ago('1s') });
    assert.equal(cells(jobPrinter, deleting)['Status'], 'Terminating');
    const suspended = job({ suspend: true }, { conditions: [{ type: 'Suspended', status: 'True' }] });
    assert.deepEqual([cells(jobPrinter, suspended)['Status'], cells(jobPrinter, suspended)['Duration']], ['Suspended', '']);
    const target = job({}, { startTime: ago('2m'), conditions: [{ type: 'FailureTarget', status: 'True' }] });
    assert.equal(cells(jobPrinter, target)['Status'], 'FailureTarget');
    const resumed = job({}, { startTime: ago('2m'), conditions: [{ type: 'Suspended', status: 'False' }] });
    assert.equal(cells(jobPrinter, resumed)['Status'], 'Running');
  });

  it('prints completions of work-queue jobs', () => {
    assert.equal(cells(jobPrinter, job({ parallelism: 4 }, { succeeded: 0 }))['Completions'], '0/1 of 4');
    assert.equal(cells(jobPrinter, job({ parallelism: 1 }, { succeeded: 1 }))['Completions'], '1/1');
  });
});

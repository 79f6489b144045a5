import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../meta.js';
import { podPrinter } from './pod.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

type Json = Record<string, unknown>;

const running = { running: { startedAt: ago('9m') } };
const waiting = (reason: string): Json => ({ waiting: { reason } });
const terminated = (fields: Json): Json => ({ terminated: { exitCode: 0, ...fields } });

function status(name: string, state: Json, extra: Json = {}): Json {
  return { name, ready: false, restartCount: 0, image: 'img', imageID: '', state, lastState: {}, ...extra };
}

function pod(containers: string[], podStatus: Json, spec: Json = {}, metadata: Json = {}): KubeObject {
  return object(
    'v1',
    'Pod',
    { name: 'web-1', namespace: 'default', ...metadata },
    {
      spec: { containers: containers.map((name) => ({ name, image: 'img' })), ...spec },
      status: podStatus,
    },
  );
}

function row(p: KubeObject): Record<string, unknown> {
  return cells(podPrinter, p);
}

describe('pod printer columns', () => {
  it('has kubectl 1.32 columns', () => {
    assert.deepEqual(columnNames(podPrinter), {
      normal: ['Name', 'Ready', 'Status', 'Restarts', 'Age'],
      wide: ['IP', 'Node', 'Nominated Node', 'Readiness Gates'],
    });
  });
});

describe('pod printer: running and pending pods', () => {
  it('prints a healthy running pod', () => {
    const p = pod(
      ['app'],
      {
        phase: 'Running',
        podIP: '10.244.0.5',
        podIPs: [{ ip: '10.244.0.5' }, { ip: 'fd00::5' }],
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [status('app', running, { ready: true })],
      },
      { nodeName: 'node-a' },
    );
    assert.deepEqual(row(p), {
      Name: 'web-1',
      Ready: '1/1',
      Status: 'Running',
      Restarts: '0',
      Age: '10m',
      IP: '10.244.0.5',
      Node: 'node-a',
      'Nominated Node': '<none>',
      'Readiness Gates': '<none>',
    });
  });

  it('prints an unscheduled pending pod', () => {
    const r = row(pod(['app', 'sidecar'], { phase: 'Pending', nominatedNodeName: 'node-b' }));
    assert.equal(r['Ready'], '0/2');
    assert.equal(r['Status'], 'Pending');
    assert.equal(r['IP'], '<none>');
    assert.equal(r['Node'], '<none>');
    assert.equal(r['Nominated Node'], 'node-b');
  });

  it('falls back to the legacy podIP field', () => {
    assert.equal(row(pod(['app'], { phase: 'Running', podIP: '10.0.0.9' }))['IP'], '10.0.0.9');
  });

  it('shows waiting reasons of containers', () => {
    for (const reason of ['ContainerCreating', 'ImagePullBackOff', 'ErrImagePull', 'CrashLoopBackOff', 'CreateContainerConfigError']) {
      const p = pod(['app'], { phase: 'Pending', containerStatuses: [status('app', waiting(reason))] });
      assert.equal(row(p)['Status'], reason);
    }
  });

  it('lets the first container win over later ones', () => {
    const p = pod(['a', 'b'], {
      phase: 'Running',
      containerStatuses: [status('a', waiting('CrashLoopBackOff')), status('b', waiting('ImagePullBackOff'))],
    });
    assert.equal(row(p)['Status'], 'CrashLoopBackOff');
  });

  it('counts only running and ready containers as ready', () => {
    const p = pod(['a', 'b', 'c'], {
      phase: 'Running',
      containerStatuses: [status('a', running, { ready: true }), status('b', running, { ready: false }), status('c', running, { ready: true })],
    });
    assert.equal(row(p)['Ready'], '2/3');
  });

  it('prints SchedulingGated for pods held by scheduling gates', () => {
    const p = pod(['app'], { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] });
    assert.equal(row(p)['Status'], 'SchedulingGated');
  });
});

describe('pod printer: restarts', () => {
  it('sums restarts and shows the time of the latest one', () => {
    const p = pod(['a', 'b'], {
      phase: 'Running',
      containerStatuses: [
        status('a', waiting('CrashLoopBackOff'), { restartCount: 4, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago('5m') } } }),
        status('b', running, { ready: true, restartCount: 1, lastState: { terminated: { exitCode: 137, finishedAt: ago('2h') } } }),
      ],
    });
    assert.equal(row(p)['Restarts'], '5 (5m ago)');
    assert.equal(row(p)['Status'], 'CrashLoopBackOff');
  });

  it('shows a bare count when no termination time is known', () => {
    const p = pod(['a'], { phase: 'Running', containerStatuses: [status('a', running, { ready: true, restartCount: 3 })] });
    assert.equal(row(p)['Restarts'], '3');
  });
});

describe('pod printer: terminated containers', () => {
  it('prints Completed for a succeeded pod', () => {
    const p = pod(['job'], { phase: 'Succeeded', containerStatuses: [status('job', terminated({ reason: 'Completed' }))] });
    assert.deepEqual([row(p)['Ready'], row(p)['Status']], ['0/1', 'Completed']);
  });

  it('prints the terminated reason of a failed container', () => {
    const p = pod(['app'], { phase: 'Failed', containerStatuses: [status('app', terminated({ exitCode: 1, reason: 'Error' }))] });
    assert.equal(row(p)['Status'], 'Error');
    const oom = pod(['app'], { phase: 'Running', containerStatuses: [status('app', terminated({ exitCode: 137, reason: 'OOMKilled' }))] });
    assert.equal(row(oom)['Status'], 'OOMKilled');
  });

  it('prints exit codes and signals when no reason is given', () => {
    const code = pod(['app'], { phase: 'Failed', containerStatuses: [status('app', terminated({ exitCode: 3 }))] });
    assert.equal(row(code)['Status'], 'ExitCode:3');
    const signal = pod(['app'], { phase: 'Failed', containerStatuses: [status('app', terminated({ exitCode: 137, signal: 9 }))] });
    assert.equal(row(signal)['Status'], 'Signal:9');
  });

  it('is Running (or NotReady) rather than Completed while another container runs', () => {
    const statuses = [status('app', running, { ready: true }), status('once', terminated({ reason: 'Completed' }))];
    const ready = pod(['app', 'once'], { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: statuses });
    assert.equal(row(ready)['Status'], 'Running');
    const notReady = pod(['app', 'once'], { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: statuses });
    assert.equal(row(notReady)['Status'], 'NotReady');
  });

  it('prints the pod reason such as Evicted', () => {
    const p = pod(['app'], { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' });
    assert.equal(row(p)['Status'], 'Evicted');
  });
});

describe('pod printer: init containers', () => {
  const initSpec = {
    initContainers: [
      { name: 'migrate', image: 'img' },
      { name: 'seed', image: 'img' },
    ],
  };

  it('prints Init:N/M while init containers run', () => {
    const first = pod(
      ['app'],
      {
        phase: 'Pending',
        initContainerStatuses: [status('migrate', running), status('seed', waiting('PodInitializing'))],
        containerStatuses: [status('app', waiting('PodInitializing'))],
      },
      initSpec,
    );
    assert.equal(row(first)['Status'], 'Init:0/2');
    const second = pod(
      ['app'],
      {
        phase: 'Pending',
        initContainerStatuses: [status('migrate', terminated({ reason: 'Completed' })), status('seed', running)],
      },
      initSpec,
    );
    assert.equal(row(second)['Status'], 'Init:1/2');
  });

  it('prints Init:<reason> for waiting and failed init containers', () => {
    const crash = pod(
      ['app'],
      {
        phase: 'Pending',
        initContainerStatuses: [status('migrate', waiting('CrashLoopBackOff'), { restartCount: 2 }), status('seed', waiting('PodInitializing'))],
      },
      initSpec,
    );
    assert.deepEqual([row(crash)['Status'], row(crash)['Restarts']], ['Init:CrashLoopBackOff', '2']);
    const error = pod(['app'], { phase: 'Pending', initContainerStatuses: [status('migrate', terminated({ exitCode: 1, reason: 'Error' }))] }, initSpec);
    assert.equal(row(error)['Status'], 'Init:Error');
    const code = pod(['app'], { phase: 'Pending', initContainerStatuses: [status('migrate', terminated({ exitCode: 2 }))] }, initSpec);
    assert.equal(row(code)['Status'], 'Init:ExitCode:2');
    const signal = pod(['app'], { phase: 'Pending', initContainerStatuses: [status('migrate', terminated({ exitCode: 1, signal: 15 }))] }, initSpec);
    assert.equal(row(signal)['Status'], 'Init:Signal:15');
  });

  it('moves on to the main containers once init containers succeeded', () => {
    const p = pod(
      ['app'],
      {
        phase: 'Running',
        initContainerStatuses: [
          status('migrate', terminated({ reason: 'Completed' }), { restartCount: 1 }),
          status('seed', terminated({ reason: 'Completed' })),
        ],
        containerStatuses: [status('app', running, { ready: true })],
      },
      initSpec,
    );
    // Restarts of finished init containers no longer count.
    assert.deepEqual([row(p)['Ready'], row(p)['Status'], row(p)['Restarts']], ['1/1', 'Running', '0']);
  });

  it('counts sidecars (restartPolicy Always) as containers', () => {
    const p = pod(
      ['app'],
      {
        phase: 'Running',
        conditions: [
          { type: 'Initialized', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
        initContainerStatuses: [
          status('proxy', running, { started: true, ready: true, restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: ago('3m') } } }),
        ],
        containerStatuses: [status('app', running, { ready: true, restartCount: 1, lastState: { terminated: { exitCode: 1, finishedAt: ago('1h') } } })],
      },
      { initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] },
    );
    assert.deepEqual([row(p)['Ready'], row(p)['Status'], row(p)['Restarts']], ['2/2', 'Running', '3 (3m ago)']);
  });
});

describe('pod printer: deletion', () => {
  it('prints Terminating for a running pod being deleted', () => {
    const p = pod(['app'], { phase: 'Running', containerStatuses: [status('app', running, { ready: true })] }, {}, { deletionTimestamp: ago('5s') });
    assert.equal(row(p)['Status'], 'Terminating');
  });

  it('keeps the final status of a finished pod being deleted', () => {
    const p = pod(
      ['job'],
      { phase: 'Succeeded', containerStatuses: [status('job', terminated({ reason: 'Completed' }))] },
      {},
      { deletionTimestamp: ago('5s') },
    );
    assert.equal(row(p)['Status'], 'Completed');
  });

  it('prints NodeLost, and Unknown once such a pod is being deleted', () => {
    const lost = { phase: 'Running', reason: 'NodeLost', containerStatuses: [status('app', running, { ready: true })] };
    assert.equal(row(pod(['app'], { ...lost, containerStatuses: [] }))['Status'], 'NodeLost');
    assert.equal(row(pod(['app'], lost, {}, { deletionTimestamp: ago('1m') }))['Status'], 'Unknown');
  });
});

describe('pod printer: wide columns', () => {
  it('counts satisfied readiness gates', () => {
    const p = pod(
      ['app'],
      {
        phase: 'Running',
        conditions: [
          { type: 'example.com/lb-ready', status: 'True' },
          { type: 'example.com/dns', status: 'False' },
        ],
      },
      { readinessGates: [{ conditionType: 'example.com/lb-ready' }, { conditionType: 'example.com/dns' }, { conditionType: 'example.com/x' }] },
    );
    assert.equal(row(p)['Readiness Gates'], '1/3');
  });

  it('survives a pod without spec, status or creation time', () => {
    const bare: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare' } };
    assert.deepEqual(podPrinter.row(bare, new Date()), ['bare', '0/0', '', '0', '<unknown>', '<none>', '<none>', '<none>', '<none>']);
  });
});

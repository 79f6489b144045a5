import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerStatus } from '../../runtime/runtime.js';
import { containerStatus, type ContainerStatusInput } from './container-status.js';
import type { Instance } from '../observe.js';
import { buildPodStatus, podPhase } from './pod-status.js';
import type { ContainerState, ContainerStatus as ApiContainerStatus, Pod, RestartPolicy } from '../../../api/core/index.js';

function pod(restartPolicy: RestartPolicy, names: string[], init: string[] = []): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', uid: 'u' },
    spec: { restartPolicy, containers: names.map((name) => ({ name, image: 'img' })), initContainers: init.map((name) => ({ name, image: 'img' })) },
  };
}

function api(name: string, state: ContainerState, lastState: ContainerState = {}, ready = false): ApiContainerStatus {
  return {
    name,
    state,
    lastState,
    ready,
    restartCount: 0,
    image: 'img',
    imageID: '',
    ...(state.waiting && !lastState.terminated ? {} : { containerID: 'docker://x' }),
  };
}

const running: ContainerState = { running: { startedAt: 't' } };
const done = (exitCode: number): ContainerState => ({ terminated: { exitCode } });
const waiting = (reason: string): ContainerState => ({ waiting: { reason } });

test('podPhase follows the kubelet', () => {
  assert.equal(podPhase(pod('Always', ['a']), [], [api('a', waiting('ContainerCreating'))]), 'Pending');
  assert.equal(podPhase(pod('Always', ['a']), [], [api('a', running)]), 'Running');
  assert.equal(podPhase(pod('Always', ['a']), [], [api('a', waiting('CrashLoopBackOff'), done(1))]), 'Running');
  assert.equal(podPhase(pod('Never', ['a', 'b']), [], [api('a', done(0)), api('b', done(0))]), 'Succeeded');
  assert.equal(podPhase(pod('Never', ['a', 'b']), [], [api('a', done(0)), api('b', done(3))]), 'Failed');
  assert.equal(podPhase(pod('OnFailure', ['a']), [], [api('a', done(1))]), 'Running');
  assert.equal(podPhase(pod('Never', ['a'], ['i']), [api('i', done(1))], [api('a', waiting('PodInitializing'))]), 'Failed');
  assert.equal(podPhase(pod('Always', ['a'], ['i']), [api('i', running)], [api('a', waiting('PodInitializing'))]), 'Pending');
  const finished = pod('Always', ['a']);
  finished.status = { phase: 'Succeeded' };
  assert.equal(podPhase(finished, [], [api('a', running)]), 'Succeeded', 'a terminal phase never changes');
});

test('conditions say why, and keep their transition times while unchanged', () => {
  const p = pod('Always', ['a', 'b']);
  const first = buildPodStatus({
    pod: p,
    initStatuses: [],
    appStatuses: [api('a', running, {}, true), api('b', running, {}, false)],
    sandboxReady: true,
    podIP: '10.0.0.2',
    hostIP: '127.0.0.1',
    startTime: 's',
    now: new Date('2024-01-01T00:00:00Z'),
  });
  const ready = first.conditions!.find((c) => c.type === 'Ready')!;
  assert.equal(ready.status, 'False');
  assert.equal(ready.reason, 'ContainersNotReady');
  assert.equal(ready.message, 'containers with unready status: [b]');
  assert.deepEqual(
    first.conditions!.map((c) => c.type),
    ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'],
  );
  p.status = first;
  const second = buildPodStatus({
    pod: p,
    initStatuses: [],
    appStatuses: [api('a', running, {}, true), api('b', running, {}, true)],
    sandboxReady: true,
    podIP: '10.0.0.2',
    hostIP: '127.0.0.1',
    startTime: 's',
    now: new Date('2024-01-01T00:01:00Z'),
  });
  const by = (type: string) => second.conditions!.find((c) => c.type === type)!;
  assert.equal(by('Ready').status, 'True');
  assert.equal(by('Ready').lastTransitionTime, '2024-01-01T00:01:00Z');
  assert.equal(by('Initialized').lastTransitionTime, '2024-01-01T00:00:00Z');
  assert.equal(second.podIP, '10.0.0.2');
});

function inst(attempt: number, status: Partial<ContainerStatus>): Instance {
  const id = `id${attempt}`;
  const full: ContainerStatus = {
    id,
    runtimeName: id,
    state: 'exited',
    exitCode: 0,
    oomKilled: false,
    createdAt: new Date('2024-01-01T00:00:00Z'),
    error: '',
    image: 'img',
    imageId: 'sha256:abc',
    pid: 0,
    tty: false,
    labels: {},
    ...status,
  };
  return {
    id,
    name: 'a',
    attempt,
    status: full,
    summary: { id, runtimeName: id, state: full.state, image: 'img', imageId: 'sha256:abc', createdAt: full.createdAt, labels: {} },
  };
}

function statusInput(instances: Instance[], extra: Partial<ContainerStatusInput> = {}): ContainerStatusInput {
  return {
    container: { name: 'a', image: 'img' },
    isInit: false,
    instances,
    waiting: undefined,
    defaultWaiting: 'ContainerCreating',
    runtimeName: 'docker',
    previous: undefined,
    ready: () => true,
    started: () => true,
    terminationMessage: () => undefined,
    startFailedAt: () => undefined,
    ...extra,
  };
}

test('container statuses use Kubernetes reasons', () => {
  const t = (s: Date) => s;
  const oom = containerStatus(statusInput([inst(0, { exitCode: 137, oomKilled: true, startedAt: t(new Date(1000)), finishedAt: new Date(2000) })]));
  assert.equal(oom.state.terminated?.reason, 'OOMKilled');
  assert.equal(oom.state.terminated?.exitCode, 137);
  const cannot = containerStatus(statusInput([inst(0, { state: 'created', exitCode: 127, error: 'exec: "nope": executable file not found' })]));
  assert.equal(cannot.state.terminated?.reason, 'ContainerCannotRun');
  assert.match(cannot.state.terminated?.message ?? '', /executable file not found/);
  const crash = containerStatus(statusInput([inst(2, { exitCode: 1 })], { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s' } }));
  assert.deepEqual(crash.state, { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s' } });
  assert.equal(crash.lastState.terminated?.reason, 'Error');
  assert.equal(crash.restartCount, 2);
  assert.equal(crash.containerID, 'docker://id2');
  const pending = containerStatus(statusInput([], { waiting: { reason: 'ErrImagePull', message: 'no such host' } }));
  assert.deepEqual(pending.state, { waiting: { reason: 'ErrImagePull', message: 'no such host' } });
  assert.equal(pending.containerID, undefined);
  const up = containerStatus(
    statusInput([inst(1, { state: 'running', startedAt: new Date('2024-01-01T00:00:05Z') }), inst(0, { exitCode: 2, finishedAt: new Date(3000) })]),
  );
  assert.equal(up.state.running?.startedAt, '2024-01-01T00:00:05Z');
  assert.equal(up.lastState.terminated?.exitCode, 2);
  assert.equal(up.ready, true);
});

test('readiness gates hold Ready until their conditions are True', () => {
  const p = pod('Always', ['a']);
  p.spec.readinessGates = [{ conditionType: 'example.com/lb' }];
  const input = { pod: p, initStatuses: [], appStatuses: [api('a', running, {}, true)], sandboxReady: true, podIP: '', hostIP: 'h', startTime: 's' };
  const held = buildPodStatus(input).conditions!.find((c) => c.type === 'Ready')!;
  assert.equal(held.status, 'False');
  assert.equal(held.reason, 'ReadinessGatesNotReady');
  p.status = { conditions: [{ type: 'example.com/lb', status: 'True' }] };
  const status = buildPodStatus(input);
  assert.equal(status.conditions!.find((c) => c.type === 'Ready')!.status, 'True');
  assert.ok(
    status.conditions!.some((c) => c.type === 'example.com/lb'),
    'foreign conditions are kept',
  );
});

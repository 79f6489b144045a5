import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONTAINER_NAME, SANDBOX_ID } from '../../runtime/labels.js';
import type { ContainerStatus } from '../../runtime/runtime.js';
import { KeyedBackoff } from '../../../util/keyed-backoff.js';
import { nextAttempt, planPod, type PlanInput } from './plan.js';
import { SPEC_HASH_LABEL, containerHash } from '../containers/spec.js';
import type { Instance, PodRuntime } from '../observe.js';
import type { Container, Pod, RestartPolicy } from '../../../api/core/index.js';

const SANDBOX = 'sandbox-1';

function pod(restartPolicy: RestartPolicy, containers: string[], initContainers: string[] = []): Pod {
  const c = (name: string): Container => ({ name, image: 'img' });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: { restartPolicy, containers: containers.map(c), initContainers: initContainers.map(c) },
  };
}

function instance(name: string, attempt: number, state: Partial<ContainerStatus>, sandbox = SANDBOX, labels: Record<string, string> = {}): Instance {
  const id = `${name}-${attempt}`;
  const status: ContainerStatus = {
    id,
    runtimeName: id,
    state: 'running',
    exitCode: 0,
    oomKilled: false,
    createdAt: new Date(0),
    error: '',
    image: 'img',
    imageId: 'sha256:x',
    pid: 1,
    tty: false,
    labels: {},
    ...state,
  };
  return {
    id,
    name,
    attempt,
    status,
    summary: {
      id,
      runtimeName: id,
      state: status.state,
      image: 'img',
      imageId: 'sha256:x',
      createdAt: new Date(0),
      labels: { [SANDBOX_ID]: sandbox, [CONTAINER_NAME]: name, ...labels },
    },
  };
}

function runtime(...instances: Instance[]): PodRuntime {
  const containers = new Map<string, Instance[]>();
  for (const i of instances)
    containers.set(
      i.name,
      [...(containers.get(i.name) ?? []), i].sort((a, b) => b.attempt - a.attempt),
    );
  return { sandboxes: [], containers };
}

function input(p: Pod, state: PodRuntime, extra: Partial<PlanInput> = {}): PlanInput {
  return { pod: p, state, sandboxId: SANDBOX, backoff: new KeyedBackoff(), unhealthy: () => undefined, startFailedAt: () => undefined, ...extra };
}

const exited = (exitCode: number): Partial<ContainerStatus> => ({ state: 'exited', exitCode, finishedAt: new Date() });

test('init containers start one at a time, in order, before the app containers', () => {
  const p = pod('Always', ['app'], ['a', 'b']);
  let plan = planPod(input(p, runtime()));
  assert.deepEqual(
    plan.steps.map((s) => s.kind === 'start' && s.container.name),
    ['a'],
  );
  plan = planPod(input(p, runtime(instance('a', 0, { state: 'running' }))));
  assert.equal(plan.steps.length, 0);
  assert.equal(plan.initDone, false);
  plan = planPod(input(p, runtime(instance('a', 0, exited(0)))));
  assert.deepEqual(
    plan.steps.map((s) => s.kind === 'start' && s.container.name),
    ['b'],
  );
  plan = planPod(input(p, runtime(instance('a', 0, exited(0)), instance('b', 0, exited(0)))));
  assert.equal(plan.initDone, true);
  assert.deepEqual(
    plan.steps.map((s) => s.kind === 'start' && s.container.name),
    ['app'],
  );
});

test('a failed init container fails a Never pod and is retried otherwise', () => {
  const never = planPod(input(pod('Never', ['app'], ['a']), runtime(instance('a', 0, exited(1)))));
  assert.equal(never.initDone, false);
  assert.equal(never.steps.length, 0);
  const always = planPod(input(pod('Always', ['app'], ['a']), runtime(instance('a', 0, exited(1)))));
  assert.equal(always.steps[0]?.kind, 'start');
  assert.equal(always.steps[0]?.kind === 'start' && always.steps[0].attempt, 1);
});

test('restart policies decide what an exited app container does', () => {
  const cases: Array<[RestartPolicy, number, boolean]> = [
    ['Always', 0, true],
    ['Always', 1, true],
    ['OnFailure', 0, false],
    ['OnFailure', 2, true],
    ['Never', 0, false],
    ['Never', 3, false],
  ];
  for (const [policy, code, restarts] of cases) {
    const plan = planPod(input(pod(policy, ['app']), runtime(instance('app', 0, exited(code)))));
    assert.equal(plan.steps.length === 1, restarts, `${policy} exit ${code}`);
  }
});

test('the second crash in a row waits for the back-off, with the kubelet message', () => {
  const backoff = new KeyedBackoff();
  const p = pod('Always', ['app']);
  const first = planPod(input(p, runtime(instance('app', 0, exited(1))), { backoff }));
  const step = first.steps[0]!;
  assert.equal(step.kind, 'start');
  if (step.kind === 'start' && step.restart) backoff.next(step.restart.key, step.restart.eventTime);
  const second = planPod(input(p, runtime(instance('app', 1, exited(1))), { backoff }));
  const wait = second.steps[0]!;
  assert.equal(wait.kind, 'backoff');
  assert.match(wait.kind === 'backoff' ? wait.message : '', /^back-off 10s restarting failed container=app pod=p_ns\(u1\)$/);
});

test('liveness failures and spec changes kill running containers; readiness does not', () => {
  const p = pod('Always', ['app']);
  const running = instance('app', 0, { state: 'running' });
  const live = planPod(input(p, runtime(running), { unhealthy: () => ({ kind: 'liveness', output: 'x' }) }));
  assert.deepEqual(
    live.steps.map((s) => s.kind === 'kill' && s.why),
    ['liveness'],
  );
  const ready = planPod(input(p, runtime(running), { unhealthy: () => ({ kind: 'readiness', output: 'x' }) }));
  assert.equal(ready.steps.length, 0);
  const stale = instance('app', 0, { state: 'running' }, SANDBOX, { [SPEC_HASH_LABEL]: 'old' });
  assert.deepEqual(
    planPod(input(p, runtime(stale))).steps.map((s) => s.kind === 'kill' && s.why),
    ['changed'],
  );
  const same = instance('app', 0, { state: 'running' }, SANDBOX, { [SPEC_HASH_LABEL]: containerHash(p.spec.containers[0]!) });
  assert.equal(planPod(input(p, runtime(same))).steps.length, 0);
});

test('instances of an old sandbox are not current: the pod starts over with higher attempts', () => {
  const p = pod('Always', ['app'], ['init']);
  const state = runtime(instance('init', 0, exited(0), 'old'), instance('app', 3, { state: 'exited', exitCode: 137 }, 'old'));
  const plan = planPod(input(p, state));
  assert.deepEqual(
    plan.steps.map((s) => s.kind === 'start' && [s.container.name, s.attempt]),
    [['init', 1]],
  );
  assert.equal(nextAttempt(p, state, 'app', false), 4);
});

test('the next attempt continues from the API status when the runtime forgot', () => {
  const p = pod('Always', ['app']);
  p.status = {
    containerStatuses: [{ name: 'app', state: {}, lastState: {}, ready: false, restartCount: 5, image: 'img', imageID: '', containerID: 'docker://x' }],
  };
  assert.equal(nextAttempt(p, runtime(), 'app', false), 6);
});

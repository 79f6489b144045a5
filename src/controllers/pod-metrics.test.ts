import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerState, PodStatus } from '../api/core/index.js';
import { newOomKills } from './pod-metrics.js';

const oom: ContainerState = { terminated: { exitCode: 137, reason: 'OOMKilled' } };
const running: ContainerState = { running: {} };
/** The status of a pod with one container `app`. */
const app = (restartCount: number, state: ContainerState, lastState: ContainerState = {}): PodStatus => ({
  containerStatuses: [{ name: 'app', ready: false, restartCount, image: 'i', imageID: '', state, lastState }],
});

describe('newOomKills', () => {
  it('counts a container newly terminated by the OOM killer once', () => {
    const before = app(0, running);
    const now = app(0, oom);
    assert.equal(newOomKills(before, now), 1);
    assert.equal(newOomKills(now, now), 0);
  });

  it('counts a restart after a kill that was never seen as the state, not the restart after a seen one', () => {
    const killed = app(0, oom);
    const restarted = app(1, running, oom);
    assert.equal(newOomKills(killed, restarted), 0);
    const before = app(1, running, oom);
    const again = app(2, running, oom);
    assert.equal(newOomKills(before, again), 1);
  });

  it('ignores other terminations', () => {
    const now = app(1, { terminated: { exitCode: 1, reason: 'Error' } });
    assert.equal(newOomKills({}, now), 0);
  });
});

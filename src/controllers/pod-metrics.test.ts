import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newOomKills } from './pod-metrics.js';

const oom = { terminated: { reason: 'OOMKilled' } };
const running = { running: {} };

describe('newOomKills', () => {
  it('counts a container newly terminated by the OOM killer once', () => {
    const before = { containerStatuses: [{ name: 'app', restartCount: 0, state: running }] };
    const now = { containerStatuses: [{ name: 'app', restartCount: 0, state: oom }] };
    assert.equal(newOomKills(before, now), 1);
    assert.equal(newOomKills(now, now), 0);
  });

  it('counts a restart after a kill that was never seen as the state, not the restart after a seen one', () => {
    const killed = { containerStatuses: [{ name: 'app', restartCount: 0, state: oom }] };
    const restarted = { containerStatuses: [{ name: 'app', restartCount: 1, state: running, lastState: oom }] };
    assert.equal(newOomKills(killed, restarted), 0);
    const before = { containerStatuses: [{ name: 'app', restartCount: 1, state: running, lastState: oom }] };
    const again = { containerStatuses: [{ name: 'app', restartCount: 2, state: running, lastState: oom }] };
    assert.equal(newOomKills(before, again), 1);
  });

  it('ignores other terminations', () => {
    const now = { containerStatuses: [{ name: 'app', restartCount: 1, state: { terminated: { reason: 'Error' } } }] };
    assert.equal(newOomKills({}, now), 0);
  });
});

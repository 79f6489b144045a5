import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Instance } from '../observe.js';
import { RESTART_COUNT_LABEL, RESTART_COUNT_RESET_MS, restartCountAfter, restartCountOf } from './restart-count.js';

function instance(attempt: number, labels: Record<string, string>, ranMs: number): Instance {
  const startedAt = new Date(Date.now() - ranMs - 1000);
  const finishedAt = new Date(startedAt.getTime() + ranMs);
  return { id: `c${attempt}`, name: 'app', attempt, summary: { labels }, status: { startedAt, finishedAt } } as unknown as Instance;
}

describe('restart count', () => {
  it('counts up from the label, or from the attempt for instances without one', () => {
    assert.equal(restartCountOf(instance(4, {}, 1000)), 4);
    assert.equal(restartCountOf(instance(9, { [RESTART_COUNT_LABEL]: '2' }, 1000)), 2);
    assert.equal(restartCountAfter(instance(9, { [RESTART_COUNT_LABEL]: '2' }, 1000)), 3);
  });

  it('is forgotten once an instance ran for 30 minutes', () => {
    assert.equal(restartCountAfter(instance(9, { [RESTART_COUNT_LABEL]: '7' }, RESTART_COUNT_RESET_MS)), 0);
    assert.equal(restartCountAfter(instance(9, { [RESTART_COUNT_LABEL]: '7' }, RESTART_COUNT_RESET_MS - 1)), 8);
  });
});

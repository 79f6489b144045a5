import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestCohorts } from './request-cohorts.js';

/** A request of two stages with a resolved `await` between them, as the write path has. */
function request(name: string, log: string[]): () => void {
  return () =>
    void (async () => {
      log.push(`${name}: decode`);
      await Promise.resolve();
      log.push(`${name}: validate`);
    })();
}

test('requests handed in during one turn start together, in arrival order, and meet at each await', async () => {
  const cohorts = new RequestCohorts();
  const log: string[] = [];
  cohorts.add(request('a', log));
  cohorts.add(request('b', log));
  cohorts.add(request('c', log));
  assert.deepEqual(log, [], 'nothing starts inside the turn that handed the requests in');
  await new Promise((resolve) => setImmediate(resolve));
  // Stage by stage, not request by request.
  assert.deepEqual(log, ['a: decode', 'b: decode', 'c: decode', 'a: validate', 'b: validate', 'c: validate']);
});

test('a request handed in while a cohort starts joins the next cohort, which starts too', async () => {
  const cohorts = new RequestCohorts();
  const log: string[] = [];
  cohorts.add(() => {
    log.push('first');
    cohorts.add(() => log.push('late'));
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(log, ['first']);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(log, ['first', 'late']);
});

test('a start that throws does not keep the rest of its cohort from starting', async (t) => {
  t.mock.method(console, 'error', () => {});
  const cohorts = new RequestCohorts();
  const started: string[] = [];
  cohorts.add(() => started.push('a'));
  cohorts.add(() => {
    throw new Error('broken handler');
  });
  cohorts.add(() => started.push('c'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, ['a', 'c']);
});

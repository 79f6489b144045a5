import assert from 'node:assert/strict';
import { it } from 'node:test';
import { makePod } from '../../test/support/scheduler/builders.js';
import { messageOf } from './status.js';
import { WaitingPods } from './waiting-pods.js';

it('waiting pods: allowed, rejected or timed out once each, found by group', async () => {
  const waiting = new WaitingPods();
  const seen: string[] = [];
  waiting.handlers = {
    onAllow: (w) => seen.push(`allow ${w.key}`),
    onReject: (w, status) => seen.push(`reject ${w.key}: ${status.code} ${messageOf(status)}${status.plugin ? ` by ${status.plugin}` : ''}`),
    onTimeout: (w) => waiting.reject(w.key, 'late'),
  };
  waiting.add({ key: 'a', pod: makePod({ name: 'a' }), node: 'n1', group: 'default/g' }, 60_000);
  waiting.add({ key: 'b', pod: makePod({ name: 'b' }), node: 'n1', group: 'default/g' }, 60_000);
  waiting.add({ key: 'c', pod: makePod({ name: 'c' }), node: 'n1', group: undefined }, 5);
  assert.deepEqual(waiting.groupKeys('default/g'), ['a', 'b']);
  waiting.allow('a');
  waiting.allow('a');
  waiting.reject('b', 'gone', 'Gang');
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(seen, ['allow a', 'reject b: Unschedulable gone by Gang', 'reject c: Unschedulable late']);
  assert.equal(waiting.size, 0);
  assert.deepEqual(waiting.groupKeys('default/g'), []);
});

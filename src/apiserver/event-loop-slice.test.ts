import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventLoopSlice, LARGE_WRITE_FIELDS } from './event-loop-slice.js';

/** Whether a write of `value` would yield between its stages. */
async function yields(value: unknown): Promise<boolean> {
  const slice = new EventLoopSlice();
  slice.consider(value);
  let other = false;
  setImmediate(() => (other = true));
  await slice.pause();
  return other;
}

test('a write is large by the fields of its body, counted in maps, lists and nested objects alike', async () => {
  const wide = Object.fromEntries(Array.from({ length: LARGE_WRITE_FIELDS + 1 }, (_, i) => [`k${i}`, 'v']));
  const list = Array.from({ length: LARGE_WRITE_FIELDS + 1 }, (_, i) => i);
  const nested = Array.from({ length: 40 }, () => ({ a: Array.from({ length: 60 }, () => ({ b: 1 })) }));
  assert.equal(await yields({ data: wide }), true);
  assert.equal(await yields({ items: list }), true);
  assert.equal(await yields({ spec: nested }), true);
  assert.equal(await yields({ metadata: { name: 'small', labels: { a: 'b' } }, data: { k: 'v' } }), false);
});

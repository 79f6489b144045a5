import assert from 'node:assert/strict';
import { test } from 'node:test';
import { waitFor } from './wait-for.js';

test('waitFor returns the first value that is not undefined, null or false', async () => {
  const answers: unknown[] = [undefined, null, false, 0];
  assert.equal(await waitFor('a zero', () => answers.shift() as number | undefined, 1000), 0);
  assert.equal(await waitFor('a promise', async () => 'done', 1000), 'done');
});

test('waitFor retries a check that throws, and names what it waited for and the last error', async () => {
  let calls = 0;
  assert.equal(await waitFor('the third call', () => (++calls < 3 ? Promise.reject(new Error('not yet')) : calls), 1000), 3);
  await assert.rejects(
    waitFor('the server', () => { throw new Error('connection refused'); }, 50),
    /timed out after 50 ms waiting for the server: Error: connection refused/,
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StopWaiting, waitFor } from './wait-for.js';

test('waitFor returns the first value that is not undefined, null or false', async () => {
  const answers: unknown[] = [undefined, null, false, 0];
  assert.equal(await waitFor('a zero', () => answers.shift() as number | undefined, 1000), 0);
  assert.equal(await waitFor('a promise', async () => 'done', 1000), 'done');
});

test('waitFor retries a check that throws, and names what it waited for and the last error', async () => {
  let calls = 0;
  assert.equal(await waitFor('the third call', () => (++calls < 3 ? Promise.reject(new Error('not yet')) : calls), 1000), 3);
  await assert.rejects(
    waitFor(
      'the server',
      () => {
        throw new Error('connection refused');
      },
      50,
    ),
    /^Error: timed out after 50 ms waiting for the server; last seen: Error: connection refused$/,
  );
});

test('waitFor names the last value the check returned, not an earlier one or an earlier error', async () => {
  const answers: Array<() => unknown> = [
    () => {
      throw new Error('early');
    },
    () => undefined,
    () => null,
  ];
  await assert.rejects(
    waitFor('three pods', () => (answers.shift() ?? (() => false))() as false, 100),
    /waiting for three pods; last seen: false$/,
  );
  const phases = ['Unknown', 'Pending'];
  await assert.rejects(
    waitFor(
      'a running pod',
      () => {
        assert.equal(phases.shift() ?? 'Pending', 'Running');
        return true;
      },
      100,
    ),
    /waiting for a running pod; last seen: AssertionError: Expected values to be strictly equal:[\s\S]*'Pending'[\s\S]*'Running'/,
  );
});

test('waitFor cuts a long last value', async () => {
  const error = await waitFor(
    'a short list',
    () => {
      throw new Error('x'.repeat(5000));
    },
    20,
  ).catch((e: Error) => e);
  assert.ok(error instanceof Error);
  assert.match(error.message, /last seen: Error: x{1993}… \(3007 more characters\)$/);
  assert.ok(error.message.length < 2200, `${error.message.length} characters`);
});

test("waitFor stops at once on StopWaiting, with the check's own message", async () => {
  let calls = 0;
  const started = Date.now();
  await assert.rejects(
    waitFor(
      'a process to print ready',
      () => {
        calls++;
        if (calls === 3) throw new StopWaiting('the process exited with code 1');
        return undefined;
      },
      60_000,
    ),
    (error: Error) => error instanceof StopWaiting && error.message === 'the process exited with code 1',
  );
  assert.equal(calls, 3);
  assert.ok(Date.now() - started < 30_000, 'long before the timeout');
});

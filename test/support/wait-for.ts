// The one polling helper of the tests: `waitFor(what, check, timeoutMs)`. The
// check is done when it returns anything but undefined, null or false, and that value is
// returned. A check that throws is retried, except with StopWaiting (the process it waited on
// has exited, say), which ends the wait at once. On timeout the error names `what` and the last
// thing the check gave: its last value, or its last error — so a check that asserts inside
// (`assert.equal(pods.length, 3)`) explains itself. Polls start at 10 ms and slow to 100 ms,
// so a quick in-process check ends quickly and a slow one (kubectl, Docker) is not run in a
// hot loop.
import { inspect } from 'node:util';

export type Check<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/** Past this, the last value is cut: the message is for a person reading a test failure. */
const MAX_SEEN_CHARS = 2000;

/** Thrown by a check when what it waits for can no longer happen: waitFor rethrows it at once. */
export class StopWaiting extends Error {
  override name = 'StopWaiting';
}

export async function waitFor<T>(what: string, check: Check<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastSeen = 'nothing (the check never returned)';
  let pauseMs = 10;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
      lastSeen = inspect(value);
    } catch (error) {
      if (error instanceof StopWaiting) throw error;
      lastSeen = error instanceof Error ? `${error.name}: ${error.message}` : `a throw of ${inspect(error)}`;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${cut(lastSeen)}`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    pauseMs = Math.min(pauseMs * 2, 100);
  }
}

function cut(text: string): string {
  return text.length <= MAX_SEEN_CHARS ? text : `${text.slice(0, MAX_SEEN_CHARS)}… (${text.length - MAX_SEEN_CHARS} more characters)`;
}

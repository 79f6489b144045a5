// The one polling helper of the tests (and anything else that must wait for an eventually
// consistent state): `waitFor(what, check, timeoutMs)`. The check is done when it returns
// anything but undefined, null or false, and that value is returned; a check that throws is
// retried, and its last error is part of the timeout's message. Polls start at 10 ms and
// slow to 100 ms, so a quick in-process check ends quickly and a slow one (kubectl, Docker)
// is not run in a hot loop.

export type Check<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

export async function waitFor<T>(what: string, check: Check<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let pauseMs = 10;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    pauseMs = Math.min(pauseMs * 2, 100);
  }
}

// Start-up steps that need the API server (registering the Node, reading the cluster's id): an
// agent may start before its server, so they are retried with growing pauses until they succeed.
import type { Logger } from '../../client/index.js';
import { Backoff } from '../../util/backoff.js';
import { sleep } from './time.js';

/** `fatal`: errors no retry can mend (a misconfiguration), thrown at once. */
export async function retryUntilDone<T>(what: string, step: () => Promise<T>, logger: Logger, fatal?: (error: unknown) => boolean): Promise<T> {
  const pauses = new Backoff({ initialMs: 500, maxMs: 10_000 });
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (fatal?.(error)) throw error;
      if (attempt % 10 === 0) logger.warn(`${what} failed; retrying`, { error });
      await sleep(pauses.next());
    }
  }
}

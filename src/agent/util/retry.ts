// Start-up steps that need the API server (registering the Node, reading the cluster's id): an
// agent may start before its server, so they are retried with growing pauses until they succeed.
import type { Logger } from '../../client/index.js';
import { sleep } from './time.js';

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 10_000;

/** `fatal`: errors no retry can mend (a misconfiguration), thrown at once. */
export async function retryUntilDone<T>(what: string, step: () => Promise<T>, logger: Logger, fatal?: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (fatal?.(error)) throw error;
      if (attempt % 10 === 0) logger.warn(`${what} failed; retrying`, { error });
      await sleep(Math.min(FIRST_PAUSE_MS * 2 ** attempt, LONGEST_PAUSE_MS));
    }
  }
}

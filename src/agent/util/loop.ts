// A background loop that runs a step, sleeps, and runs it again until stopped; a failing
// step is logged and retried at the next tick, never thrown into the caller.
import type { Logger } from '../../client/index.js';
import { sleep } from './time.js';

export interface Loop {
  /** Runs the step now instead of at the next tick. */
  kick(): void;
  stop(): Promise<void>;
}

export function startLoop(name: string, intervalMs: number, step: () => Promise<void>, logger: Logger): Loop {
  const controller = new AbortController();
  let wake: AbortController | undefined;
  let failures = 0;
  let kicked = false;
  const done = (async () => {
    while (!controller.signal.aborted) {
      kicked = false;
      try {
        await step();
        failures = 0;
      } catch (error) {
        // One line per run of failures, then one now and then: a down server must not flood the log.
        if (failures++ % 30 === 0) logger.warn(`${name} failed`, { error });
      }
      if (kicked) continue;
      wake = new AbortController();
      const both = AbortSignal.any([controller.signal, wake.signal]);
      await sleep(intervalMs, both);
    }
  })();
  return {
    kick: () => {
      kicked = true;
      wake?.abort();
    },
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

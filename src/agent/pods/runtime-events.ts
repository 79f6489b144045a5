// Follows the runtimes' container events so a container that exits or is OOM-killed is seen
// at once rather than at the next resync. The stream ends when the engine restarts; it is
// then opened again after a pause.
import type { Logger } from '../../client/index.js';
import { ownerFilter, type Owner } from '../agent-labels.js';
import { POD_UID } from '../runtime/labels.js';
import type { ContainerRuntime, RuntimeEvent } from '../runtime/runtime.js';
import { sleep } from '../util/time.js';

const REOPEN_MS = 1000;
const INTERESTING = new Set(['die', 'oom']);

export function followRuntimeEvents(
  runtime: ContainerRuntime,
  owner: Owner,
  onPod: (uid: string, event: RuntimeEvent) => void,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  return (async () => {
    let failures = 0;
    while (!signal.aborted) {
      try {
        for await (const event of runtime.events(ownerFilter(owner), signal)) {
          failures = 0;
          const uid = event.labels[POD_UID];
          if (uid && INTERESTING.has(event.type)) onPod(uid, event);
        }
      } catch (error) {
        if (!signal.aborted && failures++ % 30 === 0) logger.debug('runtime event stream failed; reopening', { runtime: runtime.name, error });
      }
      await sleep(REOPEN_MS, signal);
    }
  })();
}

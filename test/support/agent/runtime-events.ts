// For the runtime tests (Docker and process alike): a container's events as a runtime streams them.
import type { RuntimeEvent } from '../../../src/agent/runtime/runtime.js';

/** Reads `stream` until its first destroy event, then aborts it (through `abort`, the stream's own signal); resolves what it read. */
export async function eventsUntilDestroy(stream: AsyncIterable<RuntimeEvent>, abort: AbortController): Promise<RuntimeEvent[]> {
  const seen: RuntimeEvent[] = [];
  for await (const event of stream) {
    seen.push(event);
    if (event.type === 'destroy') abort.abort();
  }
  return seen;
}

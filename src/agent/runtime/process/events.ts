// Lifecycle events from the runtime's own bookkeeping: the operations emit create,
// start, kill, stop and destroy; the exit watcher emits oom and die.

import { MANAGED } from '../labels.js';
import type { ListFilter, RuntimeEvent } from '../runtime.js';
import { matchLabels } from './state.js';

interface Subscriber {
  filter: ListFilter;
  queue: RuntimeEvent[];
  wake: (() => void) | undefined;
}

export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  /** Called when the first subscriber arrives: the exit watcher then follows running containers. */
  onActive: (() => void) | undefined;

  get active(): boolean {
    return this.subscribers.size > 0;
  }

  emit(type: RuntimeEvent['type'], id: string, labels: Record<string, string>, exitCode?: number): void {
    if (labels[MANAGED] !== 'true') return;
    const event: RuntimeEvent = { type, id, time: new Date(), labels, ...(exitCode === undefined ? {} : { exitCode }) };
    for (const sub of this.subscribers) {
      if (!matchLabels(labels, sub.filter.labels)) continue;
      sub.queue.push(event);
      sub.wake?.();
    }
  }

  /** Registers at once (events count from the call, not from the first read). */
  subscribe(filter: ListFilter, signal: AbortSignal): AsyncIterable<RuntimeEvent> {
    const sub: Subscriber = { filter, queue: [], wake: undefined };
    if (!signal.aborted) {
      this.subscribers.add(sub);
      if (this.subscribers.size === 1) this.onActive?.();
    }
    const onAbort = (): void => {
      this.subscribers.delete(sub);
      sub.wake?.();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return this.drain(sub, signal, onAbort);
  }

  private async *drain(sub: Subscriber, signal: AbortSignal, onAbort: () => void): AsyncGenerator<RuntimeEvent> {
    try {
      for (;;) {
        const next = sub.queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (signal.aborted) return;
        await new Promise<void>((resolve) => {
          sub.wake = resolve;
        });
        sub.wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.subscribers.delete(sub);
    }
  }
}

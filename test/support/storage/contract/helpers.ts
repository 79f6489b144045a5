// Shared pieces of the store contract suite: the harness type, object factories, and a watch
// recorder that waits for events instead of sleeping.
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/api/meta.js';
import type { Store, StoreEvent, WatchOptions } from '../../../../src/storage/store.js';
import { waitFor } from '../../wait-for.js';

export interface StoreHarness {
  store: Store;
  /** Opens the same data again; the test closes `store` first. */
  reopen?: () => Promise<Store>;
  /** Discards all history up to the current revision, as a compaction would. Enables the 410 cases. */
  compact?: () => Promise<void>;
  /** Closes every store this harness opened (close() may already have been called) and removes its data. */
  cleanup: () => Promise<void>;
}

export type OpenHarness = () => Promise<StoreHarness>;

/**
 * A harness over a store that can be opened again on the same data (a file, a key prefix):
 * `reopen` opens another, `compact` compacts the newest, `cleanup` closes every one opened.
 */
export async function reopenableHarness<S extends Store>(open: () => Promise<S>, compact: (store: S) => Promise<void>): Promise<StoreHarness & { store: S }> {
  const opened: S[] = [];
  const openOne = async () => {
    const store = await open();
    opened.push(store);
    return store;
  };
  return {
    store: await openOne(),
    reopen: openOne,
    compact: () => compact(opened[opened.length - 1]!),
    cleanup: async () => {
      await Promise.all(opened.map((one) => one.close()));
    },
  };
}

export async function withHarness(open: OpenHarness, body: (harness: StoreHarness) => Promise<void>): Promise<void> {
  const harness = await open();
  try {
    await body(harness);
  } finally {
    await harness.cleanup();
  }
}

export const PODS = '/registry/pods/';

export function podKey(name: string, namespace = 'default'): string {
  return `${PODS}${namespace}/${name}`;
}

export function pod(name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { ...labels } },
    spec: { containers: [{ name: 'main', image: 'drover-test/busybox:1' }] },
    ...extra,
  };
}

export function revisionOf(object: KubeObject | undefined): number {
  assert.ok(object !== undefined, 'expected an object');
  const revision = Number(object.metadata.resourceVersion);
  assert.ok(Number.isSafeInteger(revision) && revision > 0, `bad resourceVersion ${object.metadata.resourceVersion}`);
  return revision;
}

/** A short, comparable summary of an event. */
export function describeEvent(event: StoreEvent): string {
  return `${event.type} ${event.key}@${event.revision}`;
}

/** Collects a watch's events; `next(n)` resolves once n events in total have arrived. */
export class EventRecorder {
  readonly events: StoreEvent[] = [];
  readonly errors: Error[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  readonly onEvent = (event: StoreEvent): void => {
    this.events.push(event);
    this.wake();
  };

  readonly onError = (error: Error): void => {
    this.errors.push(error);
    this.wake();
  };

  watch(store: Store, options: WatchOptions): { stop(): void } {
    return store.watch(options, this.onEvent, this.onError);
  }

  /** Waits until `count` events have arrived in total and returns all of them. */
  async waitFor(count: number, timeoutMs = 5_000): Promise<StoreEvent[]> {
    if (this.events.length < count) {
      let timer: NodeJS.Timeout | undefined;
      const arrived = new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(this.timeoutMessage(count))), timeoutMs);
      });
      try {
        await Promise.race([arrived, timedOut]);
      } finally {
        clearTimeout(timer);
      }
    }
    if (this.events.length < count) assert.fail(this.timeoutMessage(count));
    return this.events.slice();
  }

  /** Waits for the first error the watch reports. */
  waitForError(timeoutMs = 5_000): Promise<Error> {
    return waitFor('the watch to report an error', () => this.errors[0], timeoutMs);
  }

  private wake(): void {
    this.waiters = this.waiters.filter((waiter) => {
      if (this.events.length < waiter.count && this.errors.length === 0) return true;
      waiter.resolve();
      return false;
    });
  }

  private timeoutMessage(count: number): string {
    const got = this.events.map(describeEvent).join(', ');
    return `expected ${count} events, got ${this.events.length}: [${got}]; errors: ${this.errors.map((e) => e.message)}`;
  }
}

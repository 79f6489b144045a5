// What is left of a deleted pod once its containers have stopped: the stopped containers and
// the sandbox that still holds the pod's network namespace. Tearing a network namespace down
// takes the kernel's network lock that every starting sandbox needs for its own interface, one
// at a time: 50 sandboxes removed while 50 others started held those starts up by 3.5-4 s here
// (the start of the new pods of a rolling update, say). So the leftovers are removed while no
// sandbox is starting, and those that waited REAP_WITHIN_MS regardless. Nothing of the pod
// runs by then; what waits holds only its IP. A sandbox that publishes hostPorts or shares the
// host's network is not handed here: its ports must be free for the next pod at once.
// The reaper also tells when the node is quiet (no sandbox or container start, nothing to remove):
// the sandbox pool (pool.ts) makes its sandboxes then.
import type { Logger } from '../../../client/index.js';
import { sandboxHoldsNoNodeResource } from '../types.js';
import type { Pod } from '../../../api/core/index.js';

/** The longest a pod's leftovers wait for a moment without sandbox starts. */
export const REAP_WITHIN_MS = 15_000;
/** Removals at once: the kernel does them one by one, so more would only queue there. */
const CONCURRENCY = 4;

interface Leftovers {
  remove: () => Promise<void>;
  since: number;
}

/** Whether the pod's sandbox may outlive its containers for a while (see above). */
export function leftoversMayWait(pod: Pod): boolean {
  return sandboxHoldsNoNodeResource(pod);
}

export class SandboxReaper {
  /** By pod uid, oldest first (a Map keeps insertion order). */
  private readonly pending = new Map<string, Leftovers>();
  private readonly inFlight = new Set<Promise<void>>();
  private starting = 0;
  /** Container starts in progress: they hold no kernel network lock, but the node is not idle. */
  private containerStarts = 0;
  private readonly quietListeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly waitAtMostMs = REAP_WITHIN_MS,
  ) {}

  /** Holds removals back until this sandbox start has settled. */
  sandboxStarting(started: Promise<unknown>): void {
    this.starting++;
    this.afterwards(started, () => this.starting--);
  }

  /** A pod's container start in progress: it does not hold removals back, but the node is not quiet meanwhile. */
  containerStarting(started: Promise<unknown>): void {
    this.containerStarts++;
    this.afterwards(started, () => this.containerStarts--);
  }

  /** Once `started` settles, either way: `settle`, then removals and quiet listeners get their turn. */
  private afterwards(started: Promise<unknown>, settle: () => void): void {
    const settled = () => {
      settle();
      this.pump();
    };
    started.then(settled, settled);
  }

  /**
   * No sandbox or container starting and nothing being removed or waiting to be: the moment for
   * work that may wait (the sandbox pool's refills), which must not slow pods' starts.
   */
  quiet(): boolean {
    return this.starting === 0 && this.containerStarts === 0 && this.inFlight.size === 0 && this.pending.size === 0;
  }

  /** Called each time the node may have become quiet (a start or removal settled); returns the unsubscribe. */
  onQuiet(listener: () => void): () => void {
    this.quietListeners.add(listener);
    return () => this.quietListeners.delete(listener);
  }

  /** Removes the pod's leftovers later; a pod already waiting keeps its place. */
  defer(uid: string, remove: () => Promise<void>): void {
    if (!this.pending.has(uid)) this.pending.set(uid, { remove, since: Date.now() });
    this.pump();
  }

  /** Removes everything still waiting, now (the agent is stopping). */
  async drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    await Promise.all([...this.inFlight, ...waiting.map((item) => this.run(item))]);
  }

  private pump(): void {
    this.reap();
    if (this.quiet()) for (const listener of this.quietListeners) listener();
  }

  private reap(): void {
    const now = Date.now();
    for (const [uid, item] of this.pending) {
      if (this.inFlight.size >= CONCURRENCY) break;
      if (this.starting > 0 && now - item.since < this.waitAtMostMs) break;
      this.pending.delete(uid);
      void this.run(item).finally(() => this.pump());
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    const oldest = this.pending.values().next().value;
    if (oldest && this.inFlight.size < CONCURRENCY) {
      this.timer = setTimeout(() => this.pump(), Math.max(0, oldest.since + this.waitAtMostMs - now));
      this.timer.unref();
    }
  }

  private run(item: Leftovers): Promise<void> {
    // A removal that fails (the engine went away) is left to the agent's orphan clean-up.
    const removal = item.remove().catch((error: unknown) => this.logger.warn("could not remove a deleted pod's sandbox", { error }));
    this.inFlight.add(removal);
    return removal.finally(() => this.inFlight.delete(removal));
  }
}

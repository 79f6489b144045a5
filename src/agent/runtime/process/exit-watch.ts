// Learns that a container's process has ended: inotify on its directory (the
// supervisor's exit.json appears) with a poll behind it, which also catches a
// supervisor that died without writing one. One watch per container, shared by
// every waiter; the first observation of an end emits oom/die.

import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { containerDir, type ProcessContext } from './context.js';
import { inspectContainer } from './state.js';
import { ContainerNotFoundError } from '../errors.js';
import type { ContainerStatus } from '../runtime.js';

const POLL_MS = 250;

interface Watch {
  done: Promise<ContainerStatus | undefined>;
  waiters: number;
  check(): Promise<void>;
  close(): void;
  ref(on: boolean): void;
}

export class ExitWatcher {
  private readonly watches = new Map<string, Watch>();
  private readonly reported = new Set<string>();

  constructor(private readonly ctx: ProcessContext) {}

  /**
   * Resolves with the status once the container is not running, or undefined if it
   * has been removed. The signal only stops this caller's wait.
   */
  async whenNotRunning(id: string, signal?: AbortSignal): Promise<ContainerStatus | undefined> {
    signal?.throwIfAborted();
    const w = this.watchOf(id);
    w.waiters++;
    w.ref(true);
    try {
      if (!signal) return await w.done;
      return await new Promise<ContainerStatus | undefined>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        w.done.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    } finally {
      if (--w.waiters === 0) {
        w.ref(false);
        if (!this.ctx.hub.active) w.close();
      }
    }
  }

  /** Follows a running container for the event stream only (does not keep node alive). */
  follow(id: string): void {
    if (this.ctx.hub.active) this.watchOf(id);
  }

  /** Checks a watched container now, so its die event comes before what follows. */
  async settle(id: string): Promise<void> {
    await this.watches.get(id)?.check();
  }

  /** Ends the watches nobody waits for (the last event subscriber left). */
  idle(): void {
    for (const w of this.watches.values()) if (w.waiters === 0) w.close();
  }

  private report(status: ContainerStatus): void {
    if (status.state !== 'exited') return;
    const key = `${status.id}@${status.startedAt?.getTime() ?? 0}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    if (status.oomKilled) this.ctx.hub.emit('oom', status.id, status.labels);
    this.ctx.hub.emit('die', status.id, status.labels, status.exitCode);
  }

  forget(id: string): void {
    for (const key of this.reported) if (key.startsWith(`${id}@`)) this.reported.delete(key);
  }

  private watchOf(id: string): Watch {
    const existing = this.watches.get(id);
    if (existing) return existing;
    const w = this.createWatch(id);
    this.watches.set(id, w);
    return w;
  }

  private createWatch(id: string): Watch {
    let resolve!: (s: ContainerStatus | undefined) => void;
    const done = new Promise<ContainerStatus | undefined>((r) => {
      resolve = r;
    });
    let closed = false;
    let fsw: FSWatcher | undefined;
    const finish = (status: ContainerStatus | undefined): void => {
      close();
      if (status) this.report(status);
      resolve(status);
    };
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      fsw?.close();
      if (this.watches.get(id) === w) this.watches.delete(id);
    };
    let running: Promise<void> | undefined;
    const check = (): Promise<void> =>
      (running ??= this.probe(id).then((s) => {
        running = undefined;
        if (s !== null && !closed) finish(s);
      }));
    const timer = setInterval(() => void check(), POLL_MS);
    try {
      fsw = fsWatch(containerDir(this.ctx, id), () => void check());
      fsw.on('error', () => fsw?.close());
    } catch {
      // the poll alone will do
    }
    const w: Watch = {
      done,
      waiters: 0,
      check,
      close,
      // Only a waiter keeps node alive; an event subscriber's follow does not.
      ref: (on) => {
        if (on) {
          timer.ref();
          fsw?.ref();
        } else {
          timer.unref();
          fsw?.unref();
        }
      },
    };
    w.ref(false);
    void check();
    return w;
  }

  /** The status once not running; undefined when gone; null while it runs or on a transient error. */
  private async probe(id: string): Promise<ContainerStatus | undefined | null> {
    try {
      const s = await inspectContainer(this.ctx, id);
      return s.state === 'running' ? null : s;
    } catch (err) {
      return err instanceof ContainerNotFoundError ? undefined : null;
    }
  }
}

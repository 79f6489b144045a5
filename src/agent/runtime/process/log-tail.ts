// Follows a container's log file as the supervisor appends to it: across rotation
// (container.log → container.log.1) and until the container has ended and every
// entry it wrote has been read.

import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { containerDir, type ProcessContext } from './context.js';
import { parseEntry, splitLines, type LogEntry } from './log-format.js';
import { LOG } from './records.js';
import { inspectContainer } from './state.js';

const POLL_MS = 200;
const CHUNK = 64 * 1024;

export interface TailHandlers {
  /** Returns false to pause until resume() (back-pressure). */
  entries(entries: LogEntry[]): boolean;
  end(err?: Error): void;
}

/** Where following starts: an open log file and the offset already read. */
export interface TailStart {
  file: FileHandle | undefined;
  pos: number;
  ino: number;
}

/** Opens the log (if there is one yet) and reports its current end. */
export async function openLog(path: string): Promise<TailStart> {
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return { file, pos: 0, ino: 0 };
  const s = await file.stat();
  return { file, pos: s.size, ino: s.ino };
}

export class LogTailer {
  private readonly path: string;
  private file: FileHandle | undefined;
  private pos: number;
  private ino: number;
  private rest: Buffer = Buffer.alloc(0);
  private paused = false;
  private closed = false;
  private busy: Promise<void> | undefined;
  private again = false;
  private readonly timer: NodeJS.Timeout;
  private watcher: FSWatcher | undefined;

  constructor(
    private readonly ctx: ProcessContext,
    private readonly id: string,
    start: TailStart,
    private readonly h: TailHandlers,
  ) {
    const dir = containerDir(ctx, id);
    this.path = join(dir, LOG);
    this.file = start.file;
    this.pos = start.pos;
    this.ino = start.ino;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    try {
      this.watcher = fsWatch(dir, () => this.kick());
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // the poll alone will do
    }
    this.kick();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.kick();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.watcher?.close();
    const file = this.file;
    this.file = undefined;
    void (this.busy ?? Promise.resolve()).finally(() => file?.close().catch(() => undefined));
  }

  private kick(): void {
    if (this.closed || this.paused) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = this.step()
      .catch((err: unknown) => this.finish(err as Error))
      .finally(() => {
        this.busy = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private finish(err?: Error): void {
    if (this.closed) return;
    this.close();
    this.h.end(err);
  }

  /** Reads what is new; at the end of the file, looks for rotation and for the container's end. */
  private async step(): Promise<void> {
    if (!(await this.readToEnd())) return;
    if (await this.switchIfRotated()) return this.kick();
    const running = await inspectContainer(this.ctx, this.id).then(
      (s) => s.state === 'running',
      () => false,
    );
    if (running) return;
    // Ended: what it wrote before the supervisor recorded the end is all there is.
    if (!(await this.readToEnd())) return;
    if (await this.switchIfRotated()) return this.kick();
    this.finish();
  }

  /** False when paused or closed before the end. */
  private async readToEnd(): Promise<boolean> {
    if (!this.file) {
      this.file = await open(this.path, 'r').catch(() => undefined);
      if (!this.file) return true;
      this.ino = (await this.file.stat()).ino;
      this.pos = 0;
    }
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      if (this.closed || this.paused) return false;
      const { bytesRead } = await this.file.read(buf, 0, CHUNK, this.pos);
      if (this.closed) return false;
      if (bytesRead === 0) return true;
      this.pos += bytesRead;
      const { lines, rest } = splitLines(Buffer.concat([this.rest, buf.subarray(0, bytesRead)]));
      this.rest = Buffer.from(rest);
      const entries = lines.map(parseEntry).filter((e): e is LogEntry => e !== undefined);
      if (entries.length > 0 && !this.h.entries(entries)) this.paused = true;
    }
  }

  private async switchIfRotated(): Promise<boolean> {
    if (!this.file) return false;
    const current = await stat(this.path).catch(() => undefined);
    if (!current || current.ino === this.ino) return false;
    await this.file.close().catch(() => undefined);
    this.file = undefined;
    this.rest = Buffer.alloc(0);
    return true;
  }
}

// The kernel's log, followed once for the whole agent and handed to every consumer that wants
// it: the pod manager looks for OOM kills (kernel-oom-log.ts), the GPU monitor for the NVIDIA
// driver's Xid errors (gpu/xid.ts). /dev/kmsg keeps one read position per open file, so a second
// reader would work, but it would be a second copy of this loop.
//
// /dev/kmsg is read without blocking: a blocking read would hold one of libuv's four pool
// threads for good. Each read of /dev/kmsg returns one record, "prio,seq,usec,flags;message\n"
// followed by " KEY=value" dictionary lines; a test gives a plain file instead, where one read
// returns many lines, so the text is split on newlines either way. Opening /dev/kmsg replays the
// records the kernel still holds: the first batch is marked as such, for consumers to whom an
// old record means something else than a new one. Where the log cannot be read (not root,
// inside a container) nothing is reported.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Logger } from '../../client/index.js';
import { startLoop, type Loop } from '../util/loop.js';

export const KMSG = '/dev/kmsg';
/** How often the log is read when no consumer asked for a read sooner. */
export const KERNEL_LOG_POLL_MS = 2000;
/** Larger than any record (the kernel's line limit is 1 KiB plus its key=value dictionary). */
const RECORD_BYTES = 8192;

/** A batch of kernel messages (without the /dev/kmsg prefix); `replayed` on the first read after opening. */
export type KernelLogConsumer = (messages: string[], replayed: boolean) => Promise<void> | void;

/** The message of a /dev/kmsg record ("6,84650,2995074142,-;oom-kill:..."); a line without the prefix as it is. */
export function kernelMessage(record: string): string {
  const prefix = /^\d+,\d+,\d+,[^;]*;/.exec(record);
  return prefix ? record.slice(prefix[0].length) : record;
}

export class KernelLog {
  private handle: FileHandle | undefined;
  private unavailable = false;
  private replayed = true;
  private partial = '';
  private readonly buffer = Buffer.alloc(RECORD_BYTES);
  private readonly consumers: KernelLogConsumer[] = [];
  private loop: Loop | undefined;

  constructor(readonly path = KMSG) {}

  /** Adds a consumer; it sees the messages of every read from then on. */
  consume(consumer: KernelLogConsumer): void {
    this.consumers.push(consumer);
  }

  /** The messages logged since the last call (on the first, those the kernel still holds). */
  async read(): Promise<string[]> {
    const handle = await this.opened();
    if (!handle) return [];
    let text = this.partial;
    for (;;) {
      let bytes: number;
      try {
        ({ bytesRead: bytes } = await handle.read(this.buffer, 0, RECORD_BYTES, null));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') break; // nothing new
        if (code === 'EPIPE') continue; // records were overwritten before we read them: go on with the next
        throw error;
      }
      if (bytes === 0) break;
      text += this.buffer.toString('utf8', 0, bytes);
    }
    // A plain file may end in a line still being written: keep it for the next read.
    const end = text.lastIndexOf('\n') + 1;
    this.partial = text.slice(end);
    return text
      .slice(0, end)
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith(' '))
      .map(kernelMessage);
  }

  /** One read, handed to every consumer. */
  async poll(): Promise<void> {
    const messages = await this.read();
    const replayed = this.replayed && this.handle !== undefined;
    if (this.handle) this.replayed = false;
    if (messages.length === 0 && !replayed) return;
    for (const consumer of this.consumers) await consumer(messages, replayed);
  }

  start(logger: Logger, intervalMs = KERNEL_LOG_POLL_MS): void {
    this.loop ??= startLoop('kernel log', intervalMs, () => this.poll(), logger);
  }

  /** Reads now rather than at the next tick (a consumer has reason to expect a record). */
  kick(): void {
    this.loop?.kick();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = undefined;
    await this.handle?.close();
    this.handle = undefined;
  }

  private async opened(): Promise<FileHandle | undefined> {
    if (this.handle || this.unavailable) return this.handle;
    try {
      this.handle = await open(this.path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      this.unavailable = true;
    }
    return this.handle;
  }
}

// OOM kills as the kernel logs them. Docker learns of an OOM kill from containerd, whose shim
// (cgroup v1) registers for the cgroup's OOM notification only once the container has started:
// a process killed in its first moments while the machine is busy leaves no OOMKilled mark and
// no `oom` event, only exit code 137 (3 of 6 runs here, with containers starting alongside).
// The kernel's own line names the memory cgroup and with it the container, as cAdvisor reads it:
//   oom-kill:constraint=CONSTRAINT_MEMCG,...,task_memcg=/docker/<id>,task=sh,pid=4240,uid=0
// (`/system.slice/docker-<id>.scope` under the systemd cgroup driver).
//
// /dev/kmsg is read without blocking: a blocking read would hold one of libuv's four pool
// threads for good. Opening it replays the records the kernel still holds; an old kill named
// again does no harm (a container id is never reused). Where it cannot be read (not root,
// inside a container) nothing is reported and Docker's own word is all there is.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

const KMSG = '/dev/kmsg';
/** Larger than any record (the kernel's line limit is 1 KiB plus its key=value dictionary). */
const RECORD_BYTES = 8192;

/** The container a kernel log record says an OOM kill happened in, if it is such a record. */
export function oomKilledContainer(record: string): string | undefined {
  const message = record.slice(record.indexOf(';') + 1);
  if (!message.startsWith('oom-kill:')) return undefined;
  const memcg = /(?:^|,)task_memcg=([^,\s]*)/.exec(message)?.[1] ?? '';
  return /([0-9a-f]{64})(?:\.scope)?$/.exec(memcg)?.[1];
}

export class KernelOomLog {
  private handle: FileHandle | undefined;
  private unavailable = false;
  private readonly buffer = Buffer.alloc(RECORD_BYTES);

  constructor(private readonly path = KMSG) {}

  /** The containers OOM-killed since the last call (and, on the first, those the kernel still remembers). */
  async poll(): Promise<string[]> {
    const handle = await this.opened();
    if (!handle) return [];
    const killed: string[] = [];
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
      const id = oomKilledContainer(this.buffer.toString('utf8', 0, bytes));
      if (id) killed.push(id);
    }
    return killed;
  }

  async close(): Promise<void> {
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

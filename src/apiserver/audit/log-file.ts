// The audit log file: lines are queued in memory and appended by an asynchronous writer, so a
// request never waits on the disk; close() drains the queue, so a clean stop loses no line.
// Rotation by size, named as kube-apiserver's (lumberjack) names backups: audit.log becomes
// audit-2026-11-25T21-00-00.000.log (UTC), and only the newest maxBackups backups are kept.
import { chmod, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

export interface LogFileOptions {
  /** Rotate before a write would take the file past this many bytes; 0: never. */
  maxSizeBytes: number;
  /** Rotated files kept; 0: keep them all (as lumberjack). */
  maxBackups: number;
}

/** lumberjack's backup name: the time of the rotation between the name and the extension. */
export function backupName(path: string, at: Date): string {
  const ext = extname(path);
  const stamp = at.toISOString().replace(/:/g, '-').replace(/Z$/, '');
  return join(dirname(path), `${basename(path, ext)}-${stamp}${ext}`);
}

/** The backups of `path` in its folder, oldest first (their names sort by time). */
export async function listBackups(path: string): Promise<string[]> {
  const ext = extname(path);
  const prefix = `${basename(path, ext)}-`;
  const pattern = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}$/;
  const names = await readdir(dirname(path));
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith(ext) && pattern.test(n.slice(prefix.length, n.length - ext.length)))
    .sort()
    .map((n) => join(dirname(path), n));
}

export class AuditLogFile {
  private queue: string[] = [];
  private draining: Promise<void> | undefined;
  private closed = false;
  private failed = false;

  private constructor(
    readonly path: string,
    private readonly options: LogFileOptions,
    private handle: FileHandle,
    private size: number,
  ) {}

  static async open(path: string, options: LogFileOptions): Promise<AuditLogFile> {
    const { handle, size } = await openLog(path);
    return new AuditLogFile(path, options, handle, size);
  }

  /** Queues one line (without its newline); returns at once. */
  write(line: string): void {
    if (this.closed) return;
    this.queue.push(line + '\n');
    this.draining ??= this.drain();
  }

  /** Writes every queued line, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.draining) await this.draining;
    await this.handle.close();
  }

  private async drain(): Promise<void> {
    // One turn of the event loop lets the lines of a burst of requests go out in one write.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length > 0) {
        const lines = this.queue;
        this.queue = [];
        await this.append(lines);
      }
    } catch (error) {
      // A full or vanished disk must not take the API down: say so once, keep serving.
      if (!this.failed) console.error(`audit log ${this.path}: ${(error as Error).message}; audit events are being lost`);
      this.failed = true;
      this.queue = [];
    } finally {
      this.draining = undefined;
    }
  }

  /** Appends lines, rotating first whenever the next line would take the file past the limit. */
  private async append(lines: string[]): Promise<void> {
    const limit = this.options.maxSizeBytes;
    let chunk = '';
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      // A line larger than the whole limit still goes into a file of its own.
      if (limit > 0 && this.size + chunkBytes + bytes > limit && this.size + chunkBytes > 0) {
        if (chunk) await this.handle.write(chunk);
        this.size += chunkBytes;
        chunk = '';
        chunkBytes = 0;
        await this.rotate();
      }
      chunk += line;
      chunkBytes += bytes;
    }
    if (chunk) await this.handle.write(chunk);
    this.size += chunkBytes;
  }

  private async rotate(): Promise<void> {
    await this.handle.close();
    let at = new Date();
    // Two rotations within one millisecond would share a name: the later one moves on a tick.
    while (await exists(backupName(this.path, at))) at = new Date(at.getTime() + 1);
    await rename(this.path, backupName(this.path, at));
    ({ handle: this.handle, size: this.size } = await openLog(this.path));
    if (this.options.maxBackups > 0) {
      const backups = await listBackups(this.path);
      for (const old of backups.slice(0, Math.max(0, backups.length - this.options.maxBackups))) await unlink(old).catch(() => {});
    }
  }
}

/** Opens for appending, owner-only: the log names every user and, at Request level, what they sent (Secrets too). */
async function openLog(path: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(path, 'a', 0o600);
  // A file that was there before keeps its mode through open(): tighten it.
  await chmod(path, 0o600);
  return { handle, size: (await handle.stat()).size };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

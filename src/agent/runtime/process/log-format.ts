// The container log: one entry per line, in the kubelet's CRI format
//   2024-05-01T10:00:00.123456000Z stdout F the text
// written by the supervisor. P instead of F marks a fragment of a line that the next
// entry of the same stream continues. Pure functions, so the rules are unit-tested.

export type LogStream = 'stdout' | 'stderr';

export interface LogEntry {
  /** RFC 3339 with nanoseconds, UTC: compares as a string in time order. */
  time: string;
  stream: LogStream;
  partial: boolean;
  content: Buffer;
}

export interface LogSelection {
  stdout: boolean;
  stderr: boolean;
  /** Entries at or after this time (as an RFC 3339 nano string). */
  since?: string;
  timestamps: boolean;
}

/** Undefined for a line that is not an entry (a torn write after a crash). */
export function parseEntry(line: Buffer): LogEntry | undefined {
  const s1 = line.indexOf(0x20);
  const s2 = s1 < 0 ? -1 : line.indexOf(0x20, s1 + 1);
  const s3 = s2 < 0 ? -1 : line.indexOf(0x20, s2 + 1);
  if (s3 < 0) return undefined;
  const stream = line.toString('latin1', s1 + 1, s2);
  const tag = line.toString('latin1', s2 + 1, s3);
  if ((stream !== 'stdout' && stream !== 'stderr') || (tag !== 'F' && tag !== 'P')) return undefined;
  return { time: line.toString('latin1', 0, s1), stream, partial: tag === 'P', content: line.subarray(s3 + 1) };
}

/** Splits a buffer into complete lines; the unterminated rest is returned to keep. */
export function splitLines(buf: Buffer): { lines: Buffer[]; rest: Buffer } {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
    lines.push(buf.subarray(start, nl));
    start = nl + 1;
  }
  return { lines, rest: buf.subarray(start) };
}

export function parseAll(buf: Buffer): LogEntry[] {
  return splitLines(buf)
    .lines.map(parseEntry)
    .filter((e): e is LogEntry => e !== undefined);
}

/** Docker's `since` in the log's own time format (ms precision is all a Date has). */
export function sinceString(since: Date): string {
  return since.toISOString().replace(/Z$/, '000000Z');
}

/** The last `tail` entries of the whole log; stream filtering comes after (Docker's rule). */
export function tailEntries(entries: LogEntry[], tail: number | undefined): LogEntry[] {
  if (tail === undefined || tail < 0) return entries;
  const n = Math.floor(tail);
  return n === 0 ? [] : entries.slice(-n);
}

/**
 * Turns entries into the bytes `kubectl logs` prints. A timestamp starts each line
 * of a stream, not each fragment, so a line written in pieces reads as one.
 */
export class LogFormatter {
  private readonly atLineStart: Record<LogStream, boolean> = { stdout: true, stderr: true };

  constructor(private readonly sel: LogSelection) {}

  wants(e: LogEntry): boolean {
    return this.sel[e.stream] && (this.sel.since === undefined || e.time >= this.sel.since);
  }

  format(e: LogEntry): Buffer {
    const parts: Buffer[] = [];
    if (this.sel.timestamps && this.atLineStart[e.stream]) parts.push(Buffer.from(`${e.time} `));
    parts.push(e.content);
    if (!e.partial) parts.push(Buffer.from('\n'));
    this.atLineStart[e.stream] = !e.partial;
    return parts.length === 1 ? e.content : Buffer.concat(parts);
  }

  /** The selected entries, formatted, as one buffer. */
  formatAll(entries: LogEntry[]): Buffer {
    return Buffer.concat(entries.filter((e) => this.wants(e)).map((e) => this.format(e)));
  }
}

// A watch: one long GET whose body is newline-delimited JSON events, parsed as chunks arrive
// (an event is handed on as soon as its line is complete, never after the stream ends).
import type { KubeObject } from '../api/meta.js';
import type { Status } from './errors.js';
import type { HttpTransport } from './http-transport.js';

export interface BookmarkObject {
  kind?: string;
  apiVersion?: string;
  metadata: { resourceVersion: string; annotations?: Record<string, string> };
}

export type WatchEvent<T extends KubeObject = KubeObject> =
  { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T } | { type: 'BOOKMARK'; object: BookmarkObject } | { type: 'ERROR'; object: Status };

export interface WatchEnd {
  /** stopped: by stop(); closed: the server ended the stream; error: network or handler failure. */
  reason: 'stopped' | 'closed' | 'error';
  error?: Error;
}

export interface WatchHandle {
  /** Resolves once the server accepted the watch; rejects (ApiStatusError) if it refused it. */
  readonly ready: Promise<void>;
  /** Settles, never rejecting, when the stream ends for any reason. */
  readonly done: Promise<WatchEnd>;
  stop(): void;
}

/** Splits a text stream into lines and parses each as JSON. */
export class NdjsonParser {
  private pending = '';

  constructor(private readonly onValue: (value: unknown) => void) {}

  push(chunk: string): void {
    let text = this.pending + chunk;
    let newline = text.indexOf('\n');
    while (newline >= 0) {
      const line = text.slice(0, newline).trim();
      text = text.slice(newline + 1);
      if (line !== '') this.onValue(JSON.parse(line));
      newline = text.indexOf('\n');
    }
    this.pending = text;
  }

  /** A last line without its newline still counts. */
  end(): void {
    const line = this.pending.trim();
    this.pending = '';
    if (line !== '') this.onValue(JSON.parse(line));
  }
}

export function startWatch<T extends KubeObject>(transport: HttpTransport, path: string, onEvent: (event: WatchEvent<T>) => void): WatchHandle {
  const controller = new AbortController();
  let finish!: (end: WatchEnd) => void;
  const done = new Promise<WatchEnd>((resolve) => (finish = resolve));
  let ended = false;
  const end = (result: WatchEnd) => {
    if (ended) return;
    ended = true;
    if (!controller.signal.aborted) controller.abort();
    finish(result);
  };
  const ready = transport.openStream(path, controller.signal).then((res) => {
    // A handler may stop the watch mid-chunk; the rest of that chunk must not be delivered.
    const parser = new NdjsonParser((value) => ended || onEvent(value as WatchEvent<T>));
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (ended) return;
      try {
        parser.push(chunk);
      } catch (error) {
        end({ reason: 'error', error: error as Error });
      }
    });
    res.on('end', () => {
      try {
        if (!ended) parser.end();
        end({ reason: 'closed' });
      } catch (error) {
        end({ reason: 'error', error: error as Error });
      }
    });
    res.on('error', (error) => end(controller.signal.aborted ? { reason: 'stopped' } : { reason: 'error', error }));
    res.on('close', () => end(res.complete ? { reason: 'closed' } : { reason: 'error', error: new Error('watch connection lost') }));
  });
  ready.catch((error: Error) => end(controller.signal.aborted ? { reason: 'stopped' } : { reason: 'error', error }));
  return {
    ready,
    done,
    stop: () => end({ reason: 'stopped' }),
  };
}

// Large YAML bodies are parsed on a thread of their own. Linear is not enough: the yaml package
// needs about 1 ms per 1-2 KB, so a 3 MiB body would hold the event loop for seconds. Small ones
// (nearly all: kubectl sends JSON) are parsed in place, where a thread's round trip would cost
// more than the parse. One thread, started on first use and holding the process open only while it parses;
// bodies queue for it, and the event loop serves everyone else meanwhile.
import { Worker } from 'node:worker_threads';
import { ApiError, type StatusReason } from '../errors.js';
import type { DecodedBody } from './index.js';
import { decodeYamlBody } from './yaml-body.js';

/** Bodies up to this size are parsed on the event loop (a few milliseconds at most). */
export const YAML_INLINE_MAX_BYTES = 8 * 1024;

export interface YamlRequest {
  id: number;
  text: string;
}

export type YamlReply = { id: number } & (DecodedBody | { error: { code: number; reason: StatusReason; message: string } });

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (decoded: DecodedBody) => void; reject: (error: Error) => void }>();

export function parseYaml(text: string): DecodedBody | Promise<DecodedBody> {
  if (text.length <= YAML_INLINE_MAX_BYTES) return decodeYamlBody(text);
  const id = nextId++;
  const thread = parserThread();
  // Held while it has work, so an awaited parse keeps the process alive, and idle it holds nothing.
  thread.ref();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    thread.postMessage({ id, text } satisfies YamlRequest);
  });
}

function parserThread(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./yaml-worker.js', import.meta.url));
  started.on('message', (reply: YamlReply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if (!waiting) return;
    if ('error' in reply) waiting.reject(new ApiError(reply.error.code, reply.error.reason, reply.error.message));
    else waiting.resolve({ value: reply.value, duplicates: reply.duplicates });
  });
  // A thread that dies (out of memory on a hostile body) fails what it held; the next body
  // starts a new one.
  started.on('error', (error) => fail(started, error));
  started.on('exit', (code) => fail(started, new Error(`the YAML parser thread exited with ${code}`)));
  worker = started;
  return started;
}

function fail(thread: Worker, error: Error): void {
  if (worker !== thread) return;
  worker = undefined;
  for (const waiting of pending.values()) waiting.reject(new ApiError(413, 'RequestEntityTooLarge', `the request body could not be parsed: ${error.message}`));
  pending.clear();
}

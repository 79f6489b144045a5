// What client-go's EventCorrelator decides before an event is written, without the I/O:
// - a spam filter: per source and object, a token bucket (burst 25, one more every 5 min), so
//   one object in a hot loop cannot flood the server;
// - similar-event aggregation: past 10 events with one object, type and reason but different
//   messages within 10 min, they are folded into one event "(combined from similar events): ...";
// - the key under which identical events are counted (the recorder patches count on repeats).
import { LruMap } from './lru.js';

export interface CorrelatorOptions {
  /** Distinct messages per (object, type, reason) before they are combined. Default 10. */
  maxSimilar?: number;
  /** Window for combining and counting. Default 10 min. */
  windowMs?: number;
  spamBurst?: number;
  spamRefillMs?: number;
  /** Entries kept per cache. Default 4096. */
  cacheSize?: number;
  now?: () => number;
}

export interface CorrelationInput {
  /** The source and involved object, e.g. `scheduler/Pod/default/web-1/<uid>`. */
  objectKey: string;
  type: string;
  reason: string;
  message: string;
}

export type Correlation = { skip: true } | { skip: false; key: string; message: string };

interface Similar {
  messages: Set<string>;
  since: number;
}

interface Bucket {
  tokens: number;
  last: number;
}

export const COMBINED_PREFIX = '(combined from similar events): ';

export class EventCorrelator {
  private readonly similar: LruMap<string, Similar>;
  private readonly buckets: LruMap<string, Bucket>;
  private readonly maxSimilar: number;
  private readonly windowMs: number;
  private readonly spamBurst: number;
  private readonly spamRefillMs: number;
  readonly now: () => number;

  constructor(options: CorrelatorOptions = {}) {
    const size = options.cacheSize ?? 4096;
    this.similar = new LruMap(size);
    this.buckets = new LruMap(size);
    this.maxSimilar = options.maxSimilar ?? 10;
    this.windowMs = options.windowMs ?? 10 * 60_000;
    this.spamBurst = options.spamBurst ?? 25;
    this.spamRefillMs = options.spamRefillMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  get window(): number {
    return this.windowMs;
  }

  correlate(input: CorrelationInput): Correlation {
    if (!this.allow(input.objectKey)) return { skip: true };
    const groupKey = `${input.objectKey}\u0000${input.type}\u0000${input.reason}`;
    const now = this.now();
    let group = this.similar.get(groupKey);
    if (!group || now - group.since > this.windowMs) {
      group = { messages: new Set(), since: now };
      this.similar.set(groupKey, group);
    }
    group.messages.add(input.message);
    if (group.messages.size < this.maxSimilar) return { skip: false, key: `${groupKey}\u0000${input.message}`, message: input.message };
    return { skip: false, key: groupKey, message: COMBINED_PREFIX + input.message };
  }

  private allow(objectKey: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(objectKey) ?? { tokens: this.spamBurst, last: now };
    bucket.tokens = Math.min(this.spamBurst, bucket.tokens + (now - bucket.last) / this.spamRefillMs);
    bucket.last = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(objectKey, bucket);
    return allowed;
  }
}

// Container lifecycle events from the engine, so the agent learns of exits and OOM
// kills at once instead of at its next relist.

import type { Readable } from 'node:stream';
import type { DockerContext } from './client.js';
import { genericError } from './engine-errors.js';
import { labelFilters } from './state.js';
import { sinceParam } from './streams.js';
import { MANAGED } from '../labels.js';
import type { ListFilter, RuntimeEvent } from '../runtime.js';

const ACTIONS = new Set<RuntimeEvent['type']>(['start', 'die', 'oom', 'create', 'destroy', 'kill', 'stop']);

// Attributes Docker mixes in with the container's labels.
const NOT_LABELS = new Set(['name', 'image', 'exitCode', 'signal', 'execDuration']);

interface EngineEvent {
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  timeNano?: number;
}

export function toRuntimeEvent(raw: EngineEvent): RuntimeEvent | undefined {
  const action = raw.Action as RuntimeEvent['type'] | undefined;
  if (raw.Type !== 'container' || !action || !ACTIONS.has(action) || !raw.Actor?.ID) return undefined;
  const attrs = raw.Actor.Attributes ?? {};
  const labels = Object.fromEntries(Object.entries(attrs).filter(([k]) => !NOT_LABELS.has(k)));
  const time = raw.timeNano ? new Date(raw.timeNano / 1e6) : new Date((raw.time ?? 0) * 1000);
  const exitCode = attrs.exitCode === undefined ? undefined : Number(attrs.exitCode);
  return { type: action, id: raw.Actor.ID, time, labels, ...(exitCode === undefined ? {} : { exitCode }) };
}

async function* lines(stream: Readable): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stream) {
    rest += String(chunk);
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl).trim();
      rest = rest.slice(nl + 1);
      if (line) yield line;
    }
  }
}

/**
 * Events from the moment of the call, not of the first read: Docker replays its
 * recent events from `since`, so nothing between the two is lost.
 */
export function events(ctx: DockerContext, filter: ListFilter, signal: AbortSignal): AsyncGenerator<RuntimeEvent> {
  return watch(ctx, filter, signal, sinceParam(new Date()));
}

async function* watch(ctx: DockerContext, filter: ListFilter, signal: AbortSignal, since: string): AsyncGenerator<RuntimeEvent> {
  let stream: Readable;
  try {
    stream = (await ctx.docker.getEvents({
      since,
      filters: { type: ['container'], ...labelFilters(filter, { [MANAGED]: 'true' }) },
    } as object)) as Readable;
  } catch (err) {
    throw genericError(err, 'watch events');
  }
  const stop = (): void => {
    stream.destroy();
  };
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const line of lines(stream)) {
      const event = toRuntimeEvent(JSON.parse(line) as EngineEvent);
      // A claimed pool sandbox's events name its pod, as a made-for-the-pod sandbox's labels do.
      if (event) yield ctx.claims ? { ...event, labels: ctx.claims.labelsOf(event.id, event.labels) } : event;
    }
  } catch (err) {
    if (!signal.aborted) throw genericError(err, 'watch events');
  } finally {
    signal.removeEventListener('abort', stop);
    stream.destroy();
  }
}

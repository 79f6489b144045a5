// `kubectl get events`: LAST SEEN TYPE REASON OBJECT MESSAGE | wide: SUBOBJECT SOURCE FIRST SEEN
// COUNT NAME. Reads core/v1 Events and also events.k8s.io/v1 ones (note, regarding,
// deprecated* fields), which Kubernetes prints through the same columns.
import type { KubeObject } from '../meta.js';
import type { TablePrinter } from '../resource.js';
import { column, wide } from './columns.js';
import { parseTimestamp, since } from './format.js';
import { at, numberAt, stringAt } from './read.js';

/** The core/v1 field, falling back to its events.k8s.io/v1 name. */
function pick(event: KubeObject, core: string, other: string): unknown {
  return at(event, core) ?? at(event, other);
}

function pickString(event: KubeObject, core: string, other: string): string {
  const value = pick(event, core, other);
  return typeof value === 'string' ? value : '';
}

function involved(event: KubeObject): unknown {
  return pick(event, 'involvedObject', 'regarding');
}

/** `kind/name` with the kind lower-cased, or just the kind when there is no name. */
export function eventObject(event: KubeObject): string {
  const kind = stringAt(involved(event), 'kind').toLowerCase();
  const name = stringAt(involved(event), 'name');
  return name === '' ? kind : `${kind}/${name}`;
}

/** `component, host`, falling back to the reporting controller and instance. */
export function eventSource(event: KubeObject): string {
  const source = pick(event, 'source', 'deprecatedSource');
  const component = stringAt(source, 'component') || stringAt(event, 'reportingComponent') || stringAt(event, 'reportingController');
  const host = stringAt(source, 'host') || stringAt(event, 'reportingInstance');
  return host === '' ? component : `${component}, ${host}`;
}

// Events recorded through the newer API have no firstTimestamp, only an eventTime.
function firstSeen(event: KubeObject, now: Date): string {
  const first = pick(event, 'firstTimestamp', 'deprecatedFirstTimestamp');
  return parseTimestamp(first) !== undefined ? since(first, now) : since(at(event, 'eventTime'), now);
}

// An event series carries its own last-observed time and count; a singleton counts as 1.
function lastSeenAndCount(event: KubeObject, now: Date): { lastSeen: string; count: number } {
  const series = at(event, 'series');
  if (series !== undefined) {
    return { lastSeen: since(at(series, 'lastObservedTime'), now), count: numberAt(series, 'count') };
  }
  const last = pick(event, 'lastTimestamp', 'deprecatedLastTimestamp');
  const count = numberAt(event, 'count') || numberAt(event, 'deprecatedCount');
  return { lastSeen: parseTimestamp(last) !== undefined ? since(last, now) : firstSeen(event, now), count: count === 0 ? 1 : count };
}

export const eventPrinter: TablePrinter = {
  columns: [
    column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'string', 'Type of this event (Normal, Warning).'),
    column(
      'Reason',
      'string',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    column('Object', 'string', 'The object that this event is about.'),
    wide('Subobject', 'string', 'The field of the object (e.g. a container) that triggered the event.'),
    wide('Source', 'string', 'The component reporting this event.'),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    wide('First Seen', 'string', 'The time at which the event was first recorded.'),
    wide('Count', 'string', 'The number of times this event has occurred.'),
    { ...wide('Name', 'string', 'Name of the event.'), format: 'name' },
  ],
  row(event, now) {
    const { lastSeen, count } = lastSeenAndCount(event, now);
    return [
      lastSeen,
      stringAt(event, 'type'),
      stringAt(event, 'reason'),
      eventObject(event),
      stringAt(involved(event), 'fieldPath'),
      eventSource(event),
      pickString(event, 'message', 'note').trim(),
      firstSeen(event, now),
      count,
      event.metadata.name ?? '',
    ];
  },
};

// events.k8s.io/v1 Event: the same Events as core/v1, under the names the newer API gives them
// (regarding, note, reportingController, the deprecated* legacy fields). Stored as core/v1 Events.
import { field, int32, microTime, named, str, struct, time } from './builders.js';
import { kindSchema } from './meta.js';
import { ObjectReference } from './object-reference.js';
import { EventSource } from './core-objects.js';

const EVENTS = 'io.k8s.api.events.v1';

const EventSeries = named(
  `${EVENTS}.EventSeries`,
  struct(
    'Data about a series of repeated events.',
    {
      count: int32('Number of occurrences in this series up to the last heartbeat time.'),
      lastObservedTime: microTime('When the last occurrence was observed.'),
    },
    ['count', 'lastObservedTime'],
  ),
);

export const EventsV1Schema = kindSchema(
  { group: 'events.k8s.io', version: 'v1', kind: 'Event' },
  'A report of something that happened to an object, as the events.k8s.io API gives it. The same Events as core/v1.',
  {
    eventTime: microTime('When the event was first observed. Required.'),
    series: field(EventSeries, 'Data about repeated occurrences; absent for a singleton event.'),
    reportingController: str('The controller that emitted the event, e.g. kubernetes.io/kubelet. Required.'),
    reportingInstance: str('The instance of the controller, e.g. kubelet-xyzf. Required, at most 128 characters.'),
    action: str('What was done (or failed) about the regarding object, e.g. Binding. Required, at most 128 characters.'),
    reason: str('Why the action was taken, in UpperCamelCase. Required, at most 128 characters.'),
    regarding: field(ObjectReference, 'The object this event is about.'),
    related: field(ObjectReference, 'A second object involved, e.g. the node for a scheduling event.'),
    note: str('A human-readable description; at most 1 kB.'),
    type: str('Normal or Warning.'),
    deprecatedSource: field(EventSource, 'The legacy source (core/v1 source).'),
    deprecatedFirstTimestamp: time('The legacy first timestamp (core/v1 firstTimestamp).'),
    deprecatedLastTimestamp: time('The legacy last timestamp (core/v1 lastTimestamp).'),
    deprecatedCount: int32('The legacy count (core/v1 count).'),
  },
  ['metadata', 'eventTime'],
);

// ResourceDefinitions of events.k8s.io/v1: Events, stored as the core/v1 Events they are (one
// object, two APIs, as in Kubernetes): written and read through the conversion, so a watch on
// either group sees what the other writes.
import type { ResourceDefinition } from '../resource.js';
import { EventsV1Schema } from '../schemas/events.js';
import { validateEventV1 } from '../validation/events-validation.js';
import { eventCoreToV1, eventV1ToCore } from '../events/event-conversion.js';
import { events as coreEvents } from './core.js';
import { field } from './helpers.js';

// The core kind's names, verbs and table, in its own group, with its own schema and validation.
const eventsV1: ResourceDefinition = {
  ...coreEvents,
  group: 'events.k8s.io',
  schema: EventsV1Schema,
  validate: validateEventV1,
  // Selectors are matched against the stored (core/v1) objects: the v1 names read their core fields,
  // and the core names work too, as in Kubernetes, where both APIs share one storage.
  fieldSelectors: {
    ...coreEvents.fieldSelectors,
    'regarding.kind': field('involvedObject.kind'),
    'regarding.namespace': field('involvedObject.namespace'),
    'regarding.name': field('involvedObject.name'),
    'regarding.uid': field('involvedObject.uid'),
    'regarding.apiVersion': field('involvedObject.apiVersion'),
    'regarding.resourceVersion': field('involvedObject.resourceVersion'),
    'regarding.fieldPath': field('involvedObject.fieldPath'),
    reportingController: field('reportingComponent'),
  },
  storedForm: { toStored: eventV1ToCore, fromStored: eventCoreToV1, storedAs: coreEvents },
};

export const eventsDefinitions: readonly ResourceDefinition[] = [eventsV1];

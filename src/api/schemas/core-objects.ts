// core/v1 Namespace, ConfigMap, Secret, ServiceAccount and Event.
import { Type } from '@sinclair/typebox';
import { atomicList, bool, field, int32, keyedList, map, microTime, named, enumStr, str, stringList, struct, time } from './builders.js';
import { kindSchema } from './meta.js';
import { LocalObjectReference, ObjectReference } from './object-reference.js';

const CORE = 'io.k8s.api.core.v1';

export const NamespaceSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Namespace' },
  'A scope for names. Namespaced objects live in exactly one namespace; deleting a namespace deletes its content.',
  {
    spec: field(
      named(
        `${CORE}.NamespaceSpec`,
        struct('Attributes of a namespace.', {
          finalizers: stringList('Opaque values that must be empty before the namespace is removed from storage. Defaults to ["kubernetes"].'),
        }),
      ),
      'Attributes of the namespace.',
    ),
    status: field(
      named(
        `${CORE}.NamespaceStatus`,
        struct('Observed state of a namespace.', {
          phase: enumStr('Active, or Terminating while its content is being deleted.', ['Active', 'Terminating']),
          conditions: keyedList(
            "Latest observations of the namespace's state.",
            named(
              `${CORE}.NamespaceCondition`,
              struct(
                'A condition of a namespace.',
                {
                  type: str('Type of the condition.'),
                  status: enumStr('True, False or Unknown.', ['True', 'False', 'Unknown']),
                  lastTransitionTime: time('When the condition last changed status.'),
                  reason: str('Machine-readable reason.'),
                  message: str('Human-readable details.'),
                },
                ['type', 'status'],
              ),
            ),
            'type',
          ),
        }),
      ),
      'Observed state of the namespace. Read-only.',
    ),
  },
);

export const ConfigMapSchema = kindSchema(
  { group: '', version: 'v1', kind: 'ConfigMap' },
  'Non-confidential configuration data, as key/value pairs, for pods to consume as environment variables, arguments or files.',
  {
    data: map('UTF-8 configuration data. Keys consist of alphanumerics, "-", "_" or "."; they may not also appear in binaryData.'),
    binaryData: map('Binary configuration data, base64-encoded in JSON. Keys may not also appear in data.', Type.String({ format: 'byte' })),
    immutable: bool('When true, data and binaryData can no longer be changed (only the object deleted). Cannot be unset.'),
  },
);

export const SecretSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Secret' },
  'Confidential data (passwords, tokens, keys) for pods to consume. Values are base64-encoded in JSON; total size at most 1 MiB.',
  {
    data: map('Secret data: base64-encoded values, keyed by names of alphanumerics, "-", "_" or ".".', Type.String({ format: 'byte' })),
    stringData: map('Write-only convenience: plain-text values merged into data (and taking precedence) on write. Never returned.'),
    type: str(
      'Kind of secret, used to check its keys: Opaque (the default), kubernetes.io/tls, kubernetes.io/dockerconfigjson, kubernetes.io/basic-auth, kubernetes.io/ssh-auth, kubernetes.io/service-account-token, ...',
    ),
    immutable: bool('When true, data can no longer be changed (only the object deleted). Cannot be unset.'),
  },
);

export const ServiceAccountSchema = kindSchema(
  { group: '', version: 'v1', kind: 'ServiceAccount' },
  'An identity for processes that run in pods, with the credentials they use to reach the API and registries.',
  {
    secrets: keyedList('Deprecated: secrets holding tokens of this account (legacy, non-projected tokens).', ObjectReference, 'name'),
    imagePullSecrets: atomicList('Registry credentials added to every pod that runs as this account.', LocalObjectReference),
    automountServiceAccountToken: bool("Whether pods running as this account get an API token mounted; a pod's own setting wins."),
  },
);

export const EventSource = named(
  `${CORE}.EventSource`,
  struct('Component that reported an event.', {
    component: str('Component name, e.g. default-scheduler or kubelet.'),
    host: str('Node name on which the event was generated.'),
  }),
);

const EventSeries = named(
  `${CORE}.EventSeries`,
  struct('Data about a series of repeated events.', {
    count: int32('Number of occurrences so far.'),
    lastObservedTime: microTime('When the last occurrence was observed.'),
  }),
);

export const EventSchema = kindSchema(
  { group: '', version: 'v1', kind: 'Event' },
  'A report of something that happened to an object (scheduling, image pulls, failures, ...). Events expire after a while.',
  {
    involvedObject: field(ObjectReference, 'The object this event is about.'),
    reason: str('Short machine-readable CamelCase reason, e.g. Scheduled, Pulled, FailedScheduling.'),
    message: str('Human-readable description of what happened.'),
    source: field(EventSource, 'Component reporting the event (legacy; see reportingComponent).'),
    firstTimestamp: time('When the event was first recorded.'),
    lastTimestamp: time('When the most recent occurrence was recorded.'),
    count: int32('Number of times the event occurred.'),
    type: str('Normal or Warning.'),
    eventTime: microTime('When the event was first observed, with microsecond precision.'),
    series: field(EventSeries, 'Data about repeated occurrences; absent for a singleton event.'),
    action: str('What was done (or failed) about the object, e.g. Binding.'),
    related: field(ObjectReference, 'A second object involved, e.g. the node for a scheduling event.'),
    reportingComponent: str('Controller that emitted the event, e.g. kubernetes.io/kubelet.'),
    reportingInstance: str('Instance of the controller that emitted the event, e.g. the node name.'),
  },
  ['metadata', 'involvedObject'],
);

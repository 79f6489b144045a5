// Query and path parameters of the API's operations, with their meaning.

export interface ParameterSpec {
  in: 'query' | 'path';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required?: boolean;
}

export const PARAMETERS: Record<string, ParameterSpec> = {
  name: { in: 'path', type: 'string', required: true, description: 'Name of the object.' },
  namespace: { in: 'path', type: 'string', required: true, description: 'Namespace of the objects: a scope for names and for authorization.' },
  pretty: { in: 'query', type: 'string', description: "If 'true', the output is indented." },
  allowWatchBookmarks: {
    in: 'query',
    type: 'boolean',
    description: 'Asks for BOOKMARK events in a watch, which carry only a resourceVersion. Servers may ignore it.',
  },
  continue: { in: 'query', type: 'string', description: 'Token from a previous page of a paginated list, to fetch the next page.' },
  fieldSelector: {
    in: 'query',
    type: 'string',
    description: 'Restricts the result to objects whose fields match, e.g. spec.nodeName=node-1. Defaults to everything.',
  },
  labelSelector: {
    in: 'query',
    type: 'string',
    description: 'Restricts the result to objects whose labels match, e.g. app=web,tier!=cache. Defaults to everything.',
  },
  limit: { in: 'query', type: 'integer', description: 'Maximum number of items in one page of a list; a continue token is returned when more remain.' },
  resourceVersion: {
    in: 'query',
    type: 'string',
    description: 'Which version of the data a list or watch must be consistent with; semantics depend on resourceVersionMatch. Defaults to the most recent.',
  },
  resourceVersionMatch: { in: 'query', type: 'string', description: 'How resourceVersion applies to a list: NotOlderThan or Exact.' },
  sendInitialEvents: {
    in: 'query',
    type: 'boolean',
    description: 'With watch=true, starts the stream with synthetic ADDED events for the current state, then a bookmark.',
  },
  timeoutSeconds: { in: 'query', type: 'integer', description: 'Timeout of the list or watch call, whether or not there is activity.' },
  watch: {
    in: 'query',
    type: 'boolean',
    description: 'Streams add, update and delete notifications instead of returning a list. Pass resourceVersion to start from a known point.',
  },
  dryRun: { in: 'query', type: 'string', description: 'When present, the request is fully processed but not persisted. The only valid value is All.' },
  fieldManager: {
    in: 'query',
    type: 'string',
    description: 'Name of the actor making the change, recorded in managedFields. At most 128 printable characters. Required for apply patches.',
  },
  fieldValidation: {
    in: 'query',
    type: 'string',
    description:
      'What the server does with unknown or duplicate fields in the body: Ignore (drop them silently), Warn (drop them and return a warning for each; the default) or Strict (fail the request with a BadRequest listing them).',
  },
  force: {
    in: 'query',
    type: 'boolean',
    description: 'For apply patches only: take ownership of fields other managers own instead of failing with a conflict.',
  },
  gracePeriodSeconds: {
    in: 'query',
    type: 'integer',
    description: "Seconds before the object is deleted; 0 means immediately. Defaults to the kind's default.",
  },
  ignoreStoreReadErrorWithClusterBreakingPotential: {
    in: 'query',
    type: 'boolean',
    description: 'Deletes objects that cannot be read from storage. Dangerous; disabled by default.',
  },
  orphanDependents: { in: 'query', type: 'boolean', description: 'Deprecated: use propagationPolicy. When true, dependents are orphaned.' },
  propagationPolicy: { in: 'query', type: 'string', description: 'Garbage collection of dependents: Orphan, Background or Foreground.' },
  container: { in: 'query', type: 'string', description: 'Container to read logs from; may be omitted when the pod has a single container.' },
  follow: { in: 'query', type: 'boolean', description: 'Stream the log as it grows.' },
  previous: { in: 'query', type: 'boolean', description: 'Return the log of the previous, terminated instance of the container.' },
  sinceSeconds: { in: 'query', type: 'integer', description: 'Only return log lines newer than this many seconds.' },
  tailLines: { in: 'query', type: 'integer', description: 'Number of lines from the end of the log to return.' },
  timestamps: { in: 'query', type: 'boolean', description: 'Prefix every log line with its RFC 3339 timestamp.' },
};

export const LIST_PARAMS = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
];
export const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation'];
export const PATCH_PARAMS = [...WRITE_PARAMS, 'force'];
export const DELETE_PARAMS = ['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy'];
export const DELETE_COLLECTION_PARAMS = [
  'continue',
  'dryRun',
  'fieldSelector',
  'gracePeriodSeconds',
  'ignoreStoreReadErrorWithClusterBreakingPotential',
  'labelSelector',
  'limit',
  'orphanDependents',
  'propagationPolicy',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
];
export const LOG_PARAMS = ['container', 'follow', 'previous', 'sinceSeconds', 'tailLines', 'timestamps'];

export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

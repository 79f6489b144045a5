// Rules for events.k8s.io/v1 Events (Kubernetes' ValidateEventCreate/Update for the v1 API,
// stricter than core/v1's): who reported it, what was done and why are required, a series has
// at least two occurrences, and after creation only the series and the deprecated counters change.
import type { FieldError, KubeObject } from '../meta.js';
import { forbidden, invalid, invalidEach, notSupported, required, tooLong } from './field-errors.js';
import { isQualifiedName } from './name-rules.js';
import { obj, text } from './util.js';
import { semanticEqual } from '../../util/json-equal.js';

const MAX_SHORT = 128;
const MAX_NOTE_BYTES = 1024;
const TYPES = ['Normal', 'Warning'] as const;
/** What an update may not change (Kubernetes: every field but series and the deprecated ones). */
const IMMUTABLE = ['eventTime', 'action', 'reason', 'regarding', 'related', 'reportingController', 'reportingInstance', 'type', 'note'] as const;

function requiredShort(event: KubeObject, name: string, errors: FieldError[]): void {
  const value = text(event[name]);
  if (value === '') errors.push(required(name));
  else if (value.length > MAX_SHORT) errors.push(tooLong(name, MAX_SHORT));
}

export function validateEventV1(event: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  if (!event['eventTime']) errors.push(required('eventTime'));
  if (event['series'] !== undefined) {
    const series = obj(event['series']);
    if (typeof series['count'] !== 'number' || series['count'] < 2) errors.push(invalid('series.count', series['count'] ?? null, 'should be at least 2'));
    if (!series['lastObservedTime']) errors.push(required('series.lastObservedTime'));
  }
  const controller = text(event['reportingController']);
  if (controller === '') errors.push(required('reportingController'));
  else errors.push(...invalidEach('reportingController', controller, isQualifiedName(controller)));
  requiredShort(event, 'reportingInstance', errors);
  requiredShort(event, 'action', errors);
  requiredShort(event, 'reason', errors);
  const type = text(event['type']);
  if (!(TYPES as readonly string[]).includes(type)) errors.push(notSupported('type', type, TYPES));
  if (Buffer.byteLength(text(event['note'])) > MAX_NOTE_BYTES) errors.push(tooLong('note', MAX_NOTE_BYTES));
  const regardingNamespace = text(obj(event['regarding'])['namespace']);
  const own = text(event.metadata.namespace);
  if (regardingNamespace !== '' && own !== '' && regardingNamespace !== own)
    errors.push(invalid('regarding.namespace', regardingNamespace, 'does not match event.namespace'));
  if (old) {
    for (const name of IMMUTABLE) {
      if (!semanticEqual(event[name], old[name])) errors.push(forbidden(name, 'field is immutable'));
    }
  }
  return errors;
}

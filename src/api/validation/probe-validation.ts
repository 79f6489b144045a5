// Probes and lifecycle handlers: exactly one handler, valid ports, probe-kind specific limits.
import type { FieldError } from '../meta.js';
import { forbidden, invalid, invalidEach, required } from './field-errors.js';
import { isValidPortName, isValidPortNum } from './name-rules.js';
import { obj, type Obj } from './util.js';

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

export function validateProbe(probe: Obj, path: string, kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe'): FieldError[] {
  const errors = validateHandler(probe, path, PROBE_HANDLERS);
  const success = probe['successThreshold'];
  if (kind !== 'readinessProbe' && typeof success === 'number' && success !== 1) {
    errors.push(invalid(`${path}.successThreshold`, success, 'must be 1'));
  }
  if (kind === 'readinessProbe' && probe['terminationGracePeriodSeconds'] !== undefined) {
    errors.push(invalid(`${path}.terminationGracePeriodSeconds`, probe['terminationGracePeriodSeconds'], 'must not be set for readinessProbes'));
  }
  const grace = probe['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace <= 0 && kind !== 'readinessProbe') {
    errors.push(invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  }
  return errors;
}

/** Exactly one of `handlers` must be set; then its own fields are checked. */
export function validateHandler(handler: Obj, path: string, handlers: readonly string[]): FieldError[] {
  const present = handlers.filter((key) => handler[key] !== undefined && handler[key] !== null);
  if (present.length === 0) return [required(path, 'must specify a handler type')];
  const errors: FieldError[] = present.slice(1).map((key) => forbidden(`${path}.${key}`, 'may not specify more than 1 handler type'));
  const kind = present[0] ?? '';
  const action = obj(handler[kind]);
  const at = `${path}.${kind}`;
  if (kind === 'exec' && (!Array.isArray(action['command']) || action['command'].length === 0)) errors.push(required(`${at}.command`));
  if (kind === 'httpGet' || kind === 'tcpSocket') errors.push(...validatePortRef(action['port'], `${at}.port`));
  if (kind === 'grpc' && typeof action['port'] === 'number') errors.push(...invalidEach(`${at}.port`, action['port'], isValidPortNum(action['port'])));
  if (kind === 'sleep' && typeof action['seconds'] === 'number' && action['seconds'] < 0) {
    errors.push(invalid(`${at}.seconds`, action['seconds'], 'must be greater than or equal to 0'));
  }
  return errors;
}

/** A port given as a number (1-65535) or an IANA name. */
export function validatePortRef(port: unknown, path: string): FieldError[] {
  if (port === undefined || port === null || port === '') return [required(path)];
  if (typeof port === 'number') return invalidEach(path, port, isValidPortNum(port));
  if (typeof port === 'string') return invalidEach(path, port, isValidPortName(port));
  return [];
}

// Cell formatting shared by the printers, matching kubectl's output: apimachinery's
// duration.HumanDuration, labels.FormatLabels, metav1.FormatLabelSelector and friends.
import type { KubeObject } from '../meta.js';
import { fromLabelSelectorObject, SelectorError } from '../selectors/index.js';
import { listAt, stringAt, type Json } from './read.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24;
const YEAR = 365;

// Go's Duration arithmetic truncates toward zero; durations here are non-negative whole ms.
function whole(ms: number, unit: number): number {
  return Math.trunc(ms / unit);
}

function withRemainder(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit}${minor}${minorUnit}`;
}

function longHumanDuration(ms: number): string {
  const hours = whole(ms, HOUR);
  if (hours < 8) return withRemainder(hours, 'h', whole(ms, MINUTE) % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / DAY);
  if (hours < DAY * 8) return withRemainder(days, 'd', hours % DAY, 'h');
  if (hours < DAY * YEAR * 2) return `${days}d`;
  const years = Math.floor(days / YEAR);
  if (hours < DAY * YEAR * 8) return withRemainder(years, 'y', days % YEAR, 'd');
  return `${years}y`;
}

/**
 * kubectl's AGE format (apimachinery duration.HumanDuration): about two significant figures,
 * e.g. 45s, 3m10s, 10m, 5h20m, 20h, 3d4h, 120d, 2y30d, 9y. Up to 2s in the future reads as 0s
 * (clock skew); further is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = whole(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 10) return withRemainder(minutes, 'm', seconds % 60, 's');
  if (minutes < 60 * 3) return `${minutes}m`;
  return longHumanDuration(ms);
}

// Go's zero time.Time, which some clients serialise instead of omitting the field.
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** Milliseconds since the epoch, or undefined for a missing, zero or unparsable timestamp. */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) || ms === GO_ZERO_TIME ? undefined : ms;
}

/** Time elapsed since `timestamp`, as kubectl shows it; `<unknown>` when there is none. */
export function since(timestamp: unknown, now: Date): string {
  const ms = parseTimestamp(timestamp);
  return ms === undefined ? '<unknown>' : humanDuration(now.getTime() - ms);
}

/** An object's AGE cell: the time since it was created, as kubectl shows it. */
export function age(object: KubeObject, now: Date): string {
  return since(object.metadata.creationTimestamp, now);
}

/** A label map as `k1=v1,k2=v2` sorted by key, or `<none>` (labels.FormatLabels). */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels[k] ?? ''}`).join(',');
}

/** A selector object as text: `<none>` when it selects everything or nothing, `<error>` if invalid. */
export function formatLabelSelector(selector: unknown): string {
  const text = selectorText(selector);
  if (text === undefined) return '<error>';
  return text === '' ? '<none>' : text;
}

/** A selector object as text ('' when empty), or undefined when it is invalid. */
export function selectorText(selector: unknown): string | undefined {
  try {
    return fromLabelSelectorObject(selector as Json | undefined).toString();
  } catch (error) {
    if (error instanceof SelectorError) return undefined;
    throw error;
  }
}

/** Names and images of a pod template's containers, comma-joined (kubectl's wide columns). */
export function containerCells(podSpec: unknown): { names: string; images: string } {
  const containers = listAt(podSpec, 'containers');
  return {
    names: containers.map((c) => stringAt(c, 'name')).join(','),
    images: containers.map((c) => stringAt(c, 'image')).join(','),
  };
}

/** `host:port`, with IPv6 hosts bracketed (Go's net.JoinHostPort). */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

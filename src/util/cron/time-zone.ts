// Wall-clock time in an IANA time zone, with nothing but Intl: what the local date and time of
// an instant is, and which instants a local date and time is (none in a spring-forward gap, two
// in a fall-back overlap).
export interface WallTime {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (timeZone === '' || timeZone.trim() !== timeZone) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function wallTimeAt(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts['year']!, month: parts['month']!, day: parts['day']!, hour: parts['hour']!, minute: parts['minute']! };
}

function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
}

/** The zone's offset from UTC at an instant, in milliseconds (to the minute). */
export function offsetAt(instant: number, timeZone: string): number {
  const floored = Math.floor(instant / 60_000) * 60_000;
  return wallAsUtc(wallTimeAt(floored, timeZone)) - floored;
}

const HALF_DAY = 12 * 3600_000;

/**
 * The instants a local time names, earliest first: none when the clocks skip it, two when they
 * pass it twice. Offsets half a day either side cover every transition there is.
 */
export function instantsOf(wall: WallTime, timeZone: string): number[] {
  const local = wallAsUtc(wall);
  return [...new Set([offsetAt(local - HALF_DAY, timeZone), offsetAt(local + HALF_DAY, timeZone)])]
    .map((offset) => local - offset)
    .filter((instant) => wallAsUtc(wallTimeAt(instant, timeZone)) === local)
    .sort((a, b) => a - b);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** RFC 3339 in the zone's local time, as Go formats it: `2026-03-08T09:00:00-04:00`, or `...Z` at offset zero. */
export function rfc3339In(instant: number, timeZone: string): string {
  const seconds = Math.floor(instant / 1000) * 1000;
  const wall = wallTimeAt(seconds, timeZone);
  const offsetMinutes = Math.round((wallAsUtc(wall) + (seconds % 60_000) - seconds) / 60_000);
  const date = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(new Date(seconds).getUTCSeconds())}`;
  if (offsetMinutes === 0) return `${date}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${date}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

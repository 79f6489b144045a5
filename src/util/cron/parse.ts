// Parses a standard cron schedule (five fields: minute hour day-of-month month day-of-week, or a
// macro such as @daily) into the sets of values each field allows. It accepts what Kubernetes'
// parser (robfig/cron's ParseStandard) accepts: `*` and `?`, ranges `a-b`, steps `*/n`, `a-b/n`
// and `a/n` (from a to the field's maximum), lists, and month and weekday names.
export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday. */
  daysOfWeek: ReadonlySet<number>;
  /**
   * Whether the day-of-month or day-of-week field was a plain `*` (or `?`, or `* /1`). Cron then
   * needs both day fields to match; when both are restricted, either one matching is enough.
   */
  dayFieldIsStar: boolean;
}

export class CronParseError extends Error {}

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface FieldRange {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly FieldRange[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES },
  { name: 'day of week', min: 0, max: 6, names: DAY_NAMES },
];

interface ParsedField {
  values: Set<number>;
  star: boolean;
}

export function parseCron(schedule: string): CronSchedule {
  const text = schedule.trim();
  if (text === '') throw new CronParseError('empty spec string');
  const expanded = text.startsWith('@') ? MACROS[text.toLowerCase()] : text;
  if (expanded === undefined) throw new CronParseError(`unrecognized descriptor: ${text}`);
  const parts = expanded.split(/\s+/);
  if (parts.length !== FIELDS.length) throw new CronParseError(`expected exactly 5 fields, found ${parts.length}: ${text}`);
  const [minutes, hours, dom, months, dow] = parts.map((part, i) => parseField(part, FIELDS[i]!)) as [
    ParsedField,
    ParsedField,
    ParsedField,
    ParsedField,
    ParsedField,
  ];
  return {
    minutes: minutes.values,
    hours: hours.values,
    daysOfMonth: dom.values,
    months: months.values,
    daysOfWeek: dow.values,
    dayFieldIsStar: dom.star || dow.star,
  };
}

function parseField(text: string, range: FieldRange): ParsedField {
  const values = new Set<number>();
  let star = false;
  for (const item of text.split(',')) {
    const parsed = parseItem(item, range);
    for (const value of parsed.values) values.add(value);
    star ||= parsed.star;
  }
  return { values, star };
}

function parseItem(item: string, range: FieldRange): ParsedField {
  const [span, stepText, ...rest] = item.split('/');
  if (rest.length > 0 || span === undefined) throw new CronParseError(`too many slashes: ${item}`);
  let star = span === '*' || span === '?';
  let start: number;
  let end: number;
  if (star) {
    [start, end] = [range.min, range.max];
  } else {
    const [low, high, ...more] = span.split('-');
    if (more.length > 0) throw new CronParseError(`too many hyphens: ${item}`);
    start = parseValue(low!, range);
    end = high === undefined ? start : parseValue(high, range);
  }
  let step = 1;
  if (stepText !== undefined) {
    step = parseNumber(stepText, item);
    if (step <= 0) throw new CronParseError(`step of range should be a positive number: ${item}`);
    // `a/n` means every n from a to the field's end, as robfig/cron reads it.
    if (!star && !span.includes('-')) end = range.max;
    if (step > 1) star = false;
  }
  if (start < range.min) throw new CronParseError(`beginning of range (${start}) below minimum (${range.min}): ${item}`);
  if (end > range.max) throw new CronParseError(`end of range (${end}) above maximum (${range.max}): ${item}`);
  if (start > end) throw new CronParseError(`beginning of range (${start}) beyond end of range (${end}): ${item}`);
  const values = new Set<number>();
  for (let value = start; value <= end; value += step) values.add(value);
  return { values, star };
}

function parseValue(text: string, range: FieldRange): number {
  const index = range.names?.indexOf(text.toLowerCase()) ?? -1;
  if (index >= 0) return index + range.min;
  return parseNumber(text, text);
}

function parseNumber(text: string, item: string): number {
  if (!/^\d+$/.test(text)) throw new CronParseError(`failed to parse int from ${text}: ${item}`);
  return Number(text);
}

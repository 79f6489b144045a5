// When a cron schedule fires next in a time zone. The search walks local calendar days and
// tries only the hours and minutes the schedule allows, so a yearly schedule costs as little
// as an every-minute one. As with robfig/cron (Kubernetes' parser), a local time the clocks skip
// (spring forward) does not fire that day, and one they pass twice (fall back) fires twice.
import type { CronSchedule } from './parse.js';
import { instantsOf, offsetAt, wallTimeAt, type WallTime } from './time-zone.js';

const DAY = 86_400_000;
/** Longer than any real gap (Feb 29 on a given weekday is under 28 years): beyond it, never. */
const SEARCH_DAYS = 366 * 30;
/** Far enough either side of a UTC calendar day to cover that local day in any zone. */
const ZONE_MARGIN = 15 * 3600_000;

function sorted(values: ReadonlySet<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

function dayMatches(schedule: CronSchedule, year: number, month: number, day: number): boolean {
  if (!schedule.months.has(month)) return false;
  const domMatch = schedule.daysOfMonth.has(day);
  const dowMatch = schedule.daysOfWeek.has(new Date(Date.UTC(year, month - 1, day)).getUTCDay());
  // Cron's rule: with either day field a plain `*`, both must match; otherwise either may.
  return schedule.dayFieldIsStar ? domMatch && dowMatch : domMatch || dowMatch;
}

/** The first time strictly after `after` (ms since epoch) that the schedule fires; undefined if never. */
export function nextTime(schedule: CronSchedule, after: number, timeZone = 'UTC'): number | undefined {
  const earliest = Math.floor(after / 60_000) * 60_000 + 60_000;
  const start = wallTimeAt(earliest, timeZone);
  const hours = sorted(schedule.hours);
  const minutes = sorted(schedule.minutes);
  let date = Date.UTC(start.year, start.month - 1, start.day);
  for (let i = 0; i <= SEARCH_DAYS; i++, date += DAY) {
    const calendar = new Date(date);
    const [year, month, day] = [calendar.getUTCFullYear(), calendar.getUTCMonth() + 1, calendar.getUTCDate()];
    if (!dayMatches(schedule, year, month, day)) continue;
    const found = firstOnDay(hours, minutes, { year, month, day }, timeZone, earliest, i === 0 ? start : undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The earliest instant at or after `earliest` among the day's allowed local times. On a day
 * without a clock change local time only moves forward, so the first match in local order is
 * the answer and the times before `start` (the first day's) need no look; a day with a change
 * is searched whole.
 */
function firstOnDay(
  hours: number[],
  minutes: number[],
  date: Omit<WallTime, 'hour' | 'minute'>,
  timeZone: string,
  earliest: number,
  start: WallTime | undefined,
): number | undefined {
  const midnight = Date.UTC(date.year, date.month - 1, date.day);
  const steady = offsetAt(midnight - ZONE_MARGIN, timeZone) === offsetAt(midnight + DAY + ZONE_MARGIN, timeZone);
  let best: number | undefined;
  for (const hour of hours) {
    if (steady && start && hour < start.hour) continue;
    for (const minute of minutes) {
      if (steady && start && hour === start.hour && minute < start.minute) continue;
      for (const instant of instantsOf({ ...date, hour, minute }, timeZone)) {
        if (instant < earliest || (best !== undefined && instant >= best)) continue;
        if (steady) return instant;
        best = instant;
      }
    }
  }
  return best;
}

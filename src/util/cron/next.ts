// When a cron schedule fires next in a time zone. The search walks local calendar days and
// tries only the hours and minutes the schedule allows, so a yearly schedule costs as little
// as an every-minute one. A local time the clocks skip (spring forward) does not fire that
// day; one they pass twice (fall back) fires once, at its first occurrence.
import type { CronSchedule } from './parse.js';
import { instantOf, wallTimeAt } from './time-zone.js';

const DAY = 86_400_000;
/** Longer than any real gap (Feb 29 on a given weekday is under 28 years): beyond it, never. */
const SEARCH_DAYS = 366 * 30;

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
    const firstDay = i === 0;
    for (const hour of hours) {
      if (firstDay && hour < start.hour) continue;
      for (const minute of minutes) {
        // Earlier local times of the first day are earlier instants too (an overlap's second
        // pass does not count): skipping them saves a day's worth of zone look-ups.
        if (firstDay && hour === start.hour && minute < start.minute) continue;
        const instant = instantOf({ year, month, day, hour, minute }, timeZone);
        if (instant !== undefined && instant >= earliest) return instant;
      }
    }
  }
  return undefined;
}

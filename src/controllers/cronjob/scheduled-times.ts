// Which scheduled time a CronJob should start now, as Kubernetes' cronjob controller (v2)
// decides: the most recent time the schedule fired after `earliest` (the last schedule time,
// or the creation) and not after now, and how many were missed on the way.
import { nextTime, type CronSchedule } from '../../util/cron/index.js';

/** More missed start times than this earn a TooManyMissedTimes warning (only the latest starts). */
export const MAX_MISSED_TIMES = 100;

export interface DueTimes {
  /** The latest time in (earliest, now]; undefined when none has come yet. */
  mostRecent?: number;
  /**
   * How many times fell in (earliest, now]: exact up to MAX_MISSED_TIMES, estimated past it
   * from the gap between the first two, as Kubernetes does.
   */
  missed: number;
  /** The first time after now: when to look again. Undefined when the schedule never fires. */
  next?: number;
}

export function dueTimes(schedule: CronSchedule, timeZone: string, earliest: number, now: number): DueTimes {
  const next = (after: number) => nextTime(schedule, after, timeZone);
  const first = next(earliest);
  if (first === undefined || first > now) return { missed: 0, next: first };
  let latest = first;
  let missed = 1;
  for (let t = next(first); t !== undefined && t <= now; t = next(t)) {
    latest = t;
    missed++;
    if (missed > MAX_MISSED_TIMES) {
      const second = next(first)!;
      missed = Math.floor((now - first) / Math.max(second - first, 1)) + 1;
      latest = latestUpTo(schedule, timeZone, t, now, second - first);
      break;
    }
  }
  return { mostRecent: latest, missed, next: next(now) };
}

/**
 * The latest time at or before `now`, given one (`known`) that is: looks back from now a
 * growing number of typical gaps until a time turns up, instead of walking every time since.
 */
function latestUpTo(schedule: CronSchedule, timeZone: string, known: number, now: number, gap: number): number {
  for (let span = Math.max(gap, 60_000); ; span *= 2) {
    const from = Math.max(known, now - span);
    let found: number | undefined = from === known ? known : undefined;
    for (let t = nextTime(schedule, from, timeZone); t !== undefined && t <= now; t = nextTime(schedule, t, timeZone)) found = t;
    if (found !== undefined) return found;
  }
}

// Cron schedules as Kubernetes' CronJobs write them (see parse.ts), evaluated in a time zone.
export { CronParseError, parseCron, type CronSchedule } from './parse.js';
export { nextTime } from './next.js';
export { isKnownTimeZone, rfc3339In } from './time-zone.js';

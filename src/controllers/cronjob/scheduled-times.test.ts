import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCron } from '../../util/cron/index.js';
import { dueTimes } from './scheduled-times.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function due(schedule: string, earliest: string, now: string, timeZone = 'UTC') {
  const d = dueTimes(parseCron(schedule), timeZone, at(earliest), at(now));
  return { mostRecent: iso(d.mostRecent), missed: d.missed, next: iso(d.next) };
}

describe('due scheduled times', () => {
  it('is none before the first time, and says when that comes', () => {
    assert.deepEqual(due('*/5 * * * *', '2026-01-01T10:00:10Z', '2026-01-01T10:04:59Z'), {
      mostRecent: undefined,
      missed: 0,
      next: '2026-01-01T10:05:00.000Z',
    });
  });

  it('is the latest time since the last one, counting the missed ones', () => {
    assert.deepEqual(due('*/5 * * * *', '2026-01-01T10:00:00Z', '2026-01-01T10:17:00Z'), {
      mostRecent: '2026-01-01T10:15:00.000Z',
      missed: 3,
      next: '2026-01-01T10:20:00.000Z',
    });
    assert.deepEqual(
      due('@hourly', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z'),
      { mostRecent: '2026-01-01T11:00:00.000Z', missed: 1, next: '2026-01-01T12:00:00.000Z' },
      'now itself is due',
    );
  });

  it('estimates past 100 missed times and still finds the latest exactly', () => {
    const d = due('* * * * *', '2026-01-01T00:00:00Z', '2026-01-03T00:00:30Z');
    assert.equal(d.mostRecent, '2026-01-03T00:00:00.000Z');
    assert.equal(d.missed, 2 * 24 * 60);
    const irregular = due('0 9 * * mon-fri', '2025-01-01T00:00:00Z', '2026-03-04T10:00:00Z');
    assert.equal(irregular.mostRecent, '2026-03-04T09:00:00.000Z');
    assert.ok(irregular.missed > 100);
  });

  it('counts in the time zone across a daylight saving change', () => {
    assert.deepEqual(due('0 9 * * *', '2026-03-06T15:00:00Z', '2026-03-08T13:30:00Z', 'America/New_York'), {
      mostRecent: '2026-03-08T13:00:00.000Z',
      missed: 2,
      next: '2026-03-09T13:00:00.000Z',
    });
  });
});

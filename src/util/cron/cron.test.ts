import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CronParseError, nextTime, parseCron, rfc3339In } from './index.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The first `count` times after `from`. */
function times(schedule: string, from: string, count: number, timeZone = 'UTC'): Array<string | undefined> {
  const parsed = parseCron(schedule);
  const out: Array<string | undefined> = [];
  let t: number | undefined = at(from);
  for (let i = 0; i < count && t !== undefined; i++) {
    t = nextTime(parsed, t, timeZone);
    out.push(iso(t));
  }
  return out;
}

describe('cron parsing', () => {
  it('reads ranges, steps, lists and names', () => {
    const s = parseCron('*/15 9-17/4 1,15 jan-mar mon-fri');
    assert.deepEqual([...s.minutes], [0, 15, 30, 45]);
    assert.deepEqual([...s.hours], [9, 13, 17]);
    assert.deepEqual([...s.daysOfMonth], [1, 15]);
    assert.deepEqual([...s.months], [1, 2, 3]);
    assert.deepEqual([...s.daysOfWeek], [1, 2, 3, 4, 5]);
    assert.equal(s.dayFieldIsStar, false);
    assert.deepEqual([...parseCron('50/5 * * * *').minutes], [50, 55], 'a/n runs to the end of the field');
  });

  it('expands the macros', () => {
    for (const [macro, same] of [
      ['@yearly', '0 0 1 1 *'],
      ['@annually', '0 0 1 1 *'],
      ['@monthly', '0 0 1 * *'],
      ['@weekly', '0 0 * * 0'],
      ['@daily', '0 0 * * *'],
      ['@midnight', '0 0 * * *'],
      ['@hourly', '0 * * * *'],
    ]) {
      assert.deepEqual(parseCron(macro!), parseCron(same!), macro);
    }
  });

  it('rejects what robfig/cron rejects', () => {
    for (const bad of [
      '',
      '* * * *',
      '* * * * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 7',
      '5-1 * * * *',
      '*/0 * * * *',
      'a * * * *',
      '@every 5m',
      '@reboot',
      '1-2-3 * * * *',
    ]) {
      assert.throws(() => parseCron(bad), CronParseError, bad);
    }
  });
});

describe('next scheduled time', () => {
  it('walks minutes, hours and days', () => {
    assert.deepEqual(times('*/20 * * * *', '2026-01-01T10:55:30Z', 3), ['2026-01-01T11:00:00.000Z', '2026-01-01T11:20:00.000Z', '2026-01-01T11:40:00.000Z']);
    assert.deepEqual(times('0 0 1 1 *', '2026-01-01T00:00:00Z', 1), ['2027-01-01T00:00:00.000Z'], 'strictly after');
    assert.deepEqual(times('30 23 31 * *', '2026-04-01T00:00:00Z', 2), ['2026-05-31T23:30:00.000Z', '2026-07-31T23:30:00.000Z'], 'months without a 31st skip');
    assert.deepEqual(times('0 12 29 2 *', '2026-03-01T00:00:00Z', 1), ['2028-02-29T12:00:00.000Z']);
    assert.deepEqual(times('0 0 30 2 *', '2026-01-01T00:00:00Z', 1), [undefined], 'never');
  });

  it('ORs the day fields when both are restricted, ANDs them when one is *', () => {
    // 2026-03-01 is a Sunday. "the 10th or any Monday"
    assert.deepEqual(times('0 0 10 * mon', '2026-03-01T00:00:00Z', 3), ['2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z', '2026-03-10T00:00:00.000Z']);
    assert.deepEqual(times('0 0 * * mon', '2026-03-01T00:00:00Z', 2), ['2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z']);
    assert.deepEqual(times('0 0 10 * *', '2026-03-01T00:00:00Z', 1), ['2026-03-10T00:00:00.000Z']);
    // A stepped star is no longer a star: "every other day of the month, or Monday"
    assert.deepEqual(times('0 0 */2 * mon', '2026-03-01T00:00:00Z', 3), ['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', '2026-03-05T00:00:00.000Z']);
  });

  it('reads the schedule in its time zone, across daylight saving changes', () => {
    // New York springs forward on 2026-03-08 (EST -5 to EDT -4) and falls back on 2026-11-01.
    assert.deepEqual(times('0 9 * * *', '2026-03-06T00:00:00Z', 3, 'America/New_York'), [
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
    ]);
    assert.deepEqual(
      times('30 2 * * *', '2026-03-07T00:00:00Z', 2, 'America/New_York'),
      ['2026-03-07T07:30:00.000Z', '2026-03-09T06:30:00.000Z'],
      'a skipped local time does not fire that day',
    );
    assert.deepEqual(
      times('30 1 * * *', '2026-10-31T12:00:00Z', 3, 'America/New_York'),
      ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z', '2026-11-02T06:30:00.000Z'],
      'a repeated local time fires at both passes, as robfig/cron does',
    );
    assert.deepEqual(
      times('*/20 * * * *', '2026-11-01T05:30:00Z', 5, 'America/New_York'),
      ['2026-11-01T05:40:00.000Z', '2026-11-01T06:00:00.000Z', '2026-11-01T06:20:00.000Z', '2026-11-01T06:40:00.000Z', '2026-11-01T07:00:00.000Z'],
      'no pause during the repeated hour',
    );
    assert.deepEqual(
      times('5 1 * * *', '2026-11-01T05:10:00Z', 1, 'America/New_York'),
      ['2026-11-01T06:05:00.000Z'],
      'from inside the first pass, the second pass of 1:05',
    );
    assert.deepEqual(times('0 0 * * *', '2026-06-01T00:00:00Z', 1, 'Asia/Kolkata'), ['2026-06-01T18:30:00.000Z']);
  });

  it('formats the scheduled timestamp in the zone, as Go RFC 3339', () => {
    assert.equal(rfc3339In(at('2026-03-08T13:00:00Z'), 'America/New_York'), '2026-03-08T09:00:00-04:00');
    assert.equal(rfc3339In(at('2026-06-01T18:30:00Z'), 'Asia/Kolkata'), '2026-06-02T00:00:00+05:30');
    assert.equal(rfc3339In(at('2026-06-01T18:30:00Z'), 'UTC'), '2026-06-01T18:30:00Z');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogFormatter, parseAll, parseEntry, sinceString, splitLines, tailEntries } from './log-format.js';

const log = Buffer.from(
  [
    '2024-05-01T10:00:00.100000000Z stdout F one',
    '2024-05-01T10:00:01.100000000Z stderr F oops',
    '2024-05-01T10:00:02.100000000Z stdout P tw',
    '2024-05-01T10:00:02.200000000Z stdout F o',
    'torn line without fields',
    '2024-05-01T10:00:03.100000000Z stdout F with  two spaces ',
    '2024-05-01T10:00:04.1',
  ].join('\n'),
);

describe('process runtime: log format', () => {
  it('parses entries and keeps the torn end for later', () => {
    const { lines, rest } = splitLines(log);
    assert.equal(lines.length, 6);
    assert.equal(rest.toString(), '2024-05-01T10:00:04.1');
    const e = parseEntry(Buffer.from('2024-05-01T10:00:03.100000000Z stdout F with  two spaces '));
    assert.equal(e?.content.toString(), 'with  two spaces ');
    assert.equal(parseEntry(Buffer.from('2024 stdin F x')), undefined);
    assert.equal(parseAll(log).length, 5);
  });

  it('joins fragments into lines, with one timestamp per line', () => {
    const entries = parseAll(log);
    assert.equal(new LogFormatter({ stdout: true, stderr: true, timestamps: false }).formatAll(entries).toString(), 'one\noops\ntwo\nwith  two spaces \n');
    assert.equal(
      new LogFormatter({ stdout: true, stderr: false, timestamps: true }).formatAll(entries).toString(),
      '2024-05-01T10:00:00.100000000Z one\n2024-05-01T10:00:02.100000000Z two\n2024-05-01T10:00:03.100000000Z with  two spaces \n',
    );
    assert.equal(new LogFormatter({ stdout: false, stderr: true, timestamps: false }).formatAll(entries).toString(), 'oops\n');
  });

  it('tail counts entries of both streams before the stream filter; since compares times', () => {
    const entries = parseAll(log);
    const stderrOnly = new LogFormatter({ stdout: false, stderr: true, timestamps: false });
    assert.equal(stderrOnly.formatAll(tailEntries(entries, 2)).toString(), '');
    assert.equal(tailEntries(entries, 0).length, 0);
    assert.equal(tailEntries(entries, undefined).length, 5);
    const since = sinceString(new Date('2024-05-01T10:00:01.100Z'));
    assert.equal(since, '2024-05-01T10:00:01.100000000Z');
    assert.equal(new LogFormatter({ stdout: true, stderr: true, timestamps: false, since }).formatAll(entries).toString(), 'oops\ntwo\nwith  two spaces \n');
  });
});

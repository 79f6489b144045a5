import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtobufDecodeError } from './errors.js';
import { concat, int, str } from '../../../test/support/apiserver/protobuf/wire-writer.js';
import { formatDuration, formatGoDuration, formatIntOrString, formatMicroTime, formatQuantity, formatTime, parseRawJson } from './well-known.js';

const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('metav1.Time and MicroTime', () => {
  it('formats Time at second precision in UTC, dropping nanoseconds as Go does', () => {
    assert.equal(formatTime(concat(int(1, seconds('2026-01-02T03:04:05Z')), int(2, 999_000_000))), '2026-01-02T03:04:05Z');
  });

  it('omits the zero Time, which Go writes as an empty message', () => {
    assert.equal(formatTime(new Uint8Array(0)), undefined);
    assert.equal(formatMicroTime(new Uint8Array(0)), undefined);
  });

  it('keeps an explicit Unix epoch', () => {
    assert.equal(formatTime(int(1, 0)), '1970-01-01T00:00:00Z');
  });

  it('formats MicroTime with six fractional digits', () => {
    const at = seconds('2026-01-02T03:04:05Z');
    assert.equal(formatMicroTime(concat(int(1, at), int(2, 123_456_789))), '2026-01-02T03:04:05.123456Z');
    assert.equal(formatMicroTime(int(1, at)), '2026-01-02T03:04:05.000000Z');
  });

  it('rejects times RFC 3339 cannot express', () => {
    assert.throws(() => formatTime(int(1, 300_000_000_000)), ProtobufDecodeError);
    assert.throws(() => formatTime(int(2, -1)), ProtobufDecodeError);
  });
});

describe('Quantity, IntOrString, Duration, RawExtension', () => {
  it('returns the quantity string, or Go’s zero quantity', () => {
    assert.equal(formatQuantity(str(1, '500m')), '500m');
    assert.equal(formatQuantity(new Uint8Array(0)), '0');
  });

  it('picks intVal or strVal by type', () => {
    assert.equal(formatIntOrString(concat(int(1, 0), int(2, 8080), str(3, ''))), 8080);
    assert.equal(formatIntOrString(concat(int(1, 1), int(2, 0), str(3, 'http'))), 'http');
    assert.equal(formatIntOrString(new Uint8Array(0)), 0);
    assert.equal(formatIntOrString(int(2, -1)), -1);
  });

  it('rejects a well-known field with the wrong wire type', () => {
    assert.throws(() => formatIntOrString(str(2, 'x')), /IntOrString field 2 has wire type 2/);
  });

  it('formats durations as Go’s time.Duration.String()', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '0s'],
      [1n, '1ns'],
      [1500n, '1.5µs'],
      [2_000_000n, '2ms'],
      [1_500_000_000n, '1.5s'],
      [90_000_000_000n, '1m30s'],
      [3_600_000_000_000n, '1h0m0s'],
      [72n * 3_600_000_000_000n + 3n * 60_000_000_000n + 500_000_000n, '72h3m0.5s'],
      [-5_000_000_000n, '-5s'],
    ];
    for (const [nanoseconds, text] of cases) assert.equal(formatGoDuration(nanoseconds), text);
    assert.equal(formatDuration(int(1, 30_000_000_000)), '30s');
  });

  it('parses raw JSON and omits an absent raw value', () => {
    assert.deepEqual(parseRawJson(str(1, '{"f:metadata":{}}'), 'x'), { 'f:metadata': {} });
    assert.equal(parseRawJson(new Uint8Array(0), 'x'), undefined);
    assert.throws(() => parseRawJson(str(1, '{nope'), 'spec.data'), /spec.data holds raw bytes that are not JSON/);
  });
});

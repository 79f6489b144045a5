import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { containerCells, formatLabelSelector, formatLabels, humanDuration, joinHostPort, parseTimestamp, selectorText, since } from './format.js';
import { NOW } from '../../../test/support/api/printer-fixtures.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration', () => {
  const cases: Array<[number, string]> = [
    [-3 * S, '<invalid>'],
    [-2 * S, '<invalid>'],
    [-1999, '0s'],
    [0, '0s'],
    [999, '0s'],
    [45 * S, '45s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [3 * M + 10 * S, '3m10s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M, '10m'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 20 * M, '5h20m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [48 * H, '2d'],
    [3 * D + 4 * H, '3d4h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D + 5 * H, '8d'],
    [120 * D, '120d'],
    [729 * D, '729d'],
    [730 * D, '2y'],
    [760 * D, '2y30d'],
    [8 * 365 * D - D, '7y364d'],
    [8 * 365 * D, '8y'],
    [3650 * D, '10y'],
  ];
  for (const [ms, expected] of cases) {
    it(`${ms}ms is ${expected}`, () => assert.equal(humanDuration(ms), expected));
  }
});

describe('since and parseTimestamp', () => {
  it('measures from the given now', () => {
    assert.equal(since('2025-03-01T11:55:00Z', NOW), '5m');
    assert.equal(since('2025-03-01T11:59:59.500000Z', NOW), '0s');
    assert.equal(since('2025-02-26T08:00:00Z', NOW), '3d4h');
  });

  it('prints <unknown> for missing, zero and unparsable timestamps', () => {
    for (const value of [undefined, null, '', 'yesterday', '0001-01-01T00:00:00Z', 42]) {
      assert.equal(since(value, NOW), '<unknown>');
      assert.equal(parseTimestamp(value), undefined);
    }
  });

  it('flags timestamps in the future', () => {
    assert.equal(since('2025-03-01T12:00:01Z', NOW), '0s');
    assert.equal(since('2025-03-01T12:05:00Z', NOW), '<invalid>');
  });
});

describe('label formatting', () => {
  it('formats label maps sorted by key', () => {
    assert.equal(formatLabels({ tier: 'fe', app: 'web' }), 'app=web,tier=fe');
    assert.equal(formatLabels({}), '<none>');
  });

  it('formats selector objects as kubectl does', () => {
    assert.equal(
      formatLabelSelector({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['b', 'a'] }] }),
      'app=web,env in (a,b)',
    );
    assert.equal(formatLabelSelector({}), '<none>');
    assert.equal(formatLabelSelector(undefined), '<none>');
    assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }), '<error>');
    assert.equal(selectorText({}), '');
    assert.equal(selectorText({ matchLabels: { app: '-' } }), undefined);
  });
});

describe('containerCells and joinHostPort', () => {
  it('joins container names and images', () => {
    const spec = {
      containers: [
        { name: 'app', image: 'web:1' },
        { name: 'proxy', image: 'envoy:1.30' },
      ],
    };
    assert.deepEqual(containerCells(spec), { names: 'app,proxy', images: 'web:1,envoy:1.30' });
    assert.deepEqual(containerCells(undefined), { names: '', images: '' });
  });

  it('brackets IPv6 hosts', () => {
    assert.equal(joinHostPort('10.0.0.1', 80), '10.0.0.1:80');
    assert.equal(joinHostPort('fd00::1', 443), '[fd00::1]:443');
  });
});

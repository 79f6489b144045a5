import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addMaps, compare, formatQuantity, parseQuantity, prettyPrint, quantityMap, subtractMapsNonNegative, type Quantity } from './quantity.js';

const q = (text: string | number): Quantity => parseQuantity(text)!;

describe('quota quantities', () => {
  test('parse exactly, in nano-units, rounding below a nano up', () => {
    assert.equal(q('500m').nano, 500_000_000n);
    assert.equal(q('1.5Gi').nano, 1_610_612_736n * 10n ** 9n);
    assert.equal(q('2e3').nano, 2000n * 10n ** 9n);
    assert.equal(q(0.5).nano, 500_000_000n);
    assert.equal(q('0.1n').nano, 1n);
    assert.equal(parseQuantity('1.2.3'), undefined);
    assert.equal(parseQuantity('12Kb'), undefined);
  });

  test("print in Kubernetes' canonical form, keeping the format", () => {
    assert.equal(formatQuantity(q('1000m')), '1');
    assert.equal(formatQuantity(q('1.5')), '1500m');
    assert.equal(formatQuantity(q('1000')), '1k');
    assert.equal(formatQuantity(q('1024Mi')), '1Gi');
    assert.equal(formatQuantity(q('1536Mi')), '1536Mi');
    assert.equal(formatQuantity(q('512')), '512');
    assert.equal(formatQuantity(q('0.5Ki')), '512');
    assert.equal(formatQuantity(q('0')), '0');
  });

  test('sums many small quantities without float drift', () => {
    let total = new Map<string, Quantity>();
    for (let i = 0; i < 10; i++) total = addMaps(total, quantityMap({ cpu: '100m', memory: '128Mi' }));
    assert.equal(formatQuantity(total.get('cpu')!), '1');
    assert.equal(formatQuantity(total.get('memory')!), '1280Mi');
    assert.equal(compare(total.get('cpu')!, q('1')), 0);
    assert.equal(compare(q('0.3'), addMaps(addMaps(new Map(), quantityMap({ a: '0.1' })), quantityMap({ a: '0.2' })).get('a')!), 0);
  });

  test('subtracts never below zero, and prints lists as quota messages do', () => {
    const left = subtractMapsNonNegative(quantityMap({ pods: '1', cpu: '100m' }), quantityMap({ cpu: '1' }));
    assert.equal(prettyPrint(left), 'cpu=0,pods=1');
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { orderMergedList, positionIn } from './smp-order.js';

const self = (item: unknown): string => String(item);

function order(merged: string[], wanted: string[], live: string[]): unknown[] {
  return orderMergedList(merged, positionIn(wanted, self), positionIn(live, self));
}

describe('orderMergedList', () => {
  it('keeps the live order when the patch names items in that order', () => {
    assert.deepEqual(order(['a', 'b', 'c'], ['b'], ['a', 'b', 'c']), ['a', 'b', 'c']);
  });

  it('follows the wanted order for the items the patch names', () => {
    assert.deepEqual(order(['a', 'b', 'c'], ['c', 'a'], ['a', 'b', 'c']), ['b', 'c', 'a']);
  });

  it('puts new items before server-only items they cannot be compared with', () => {
    assert.deepEqual(order(['a', 'b', 'n'], ['n'], ['a', 'b']), ['n', 'a', 'b']);
  });

  it('slots server-only items in before the first patch item that came later in the live list', () => {
    assert.deepEqual(order(['c', 'b', 'd', 'a', 'e'], ['a', 'b'], ['c', 'b', 'd', 'a', 'e']), ['c', 'd', 'a', 'b', 'e']);
  });

  it('keeps server-only items in live order and items without a position last', () => {
    assert.deepEqual(order(['x', 'e', 'd', 'p'], ['p'], ['d', 'p', 'e']), ['d', 'p', 'e', 'x']);
  });

  it('handles empty lists', () => {
    assert.deepEqual(order([], ['a'], ['a']), []);
    assert.deepEqual(order(['a'], [], []), ['a']);
  });
});

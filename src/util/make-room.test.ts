import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeRoom } from './make-room.js';

describe('makeRoom', () => {
  it('forgets the oldest entries once the map is full, an eighth at a time', () => {
    const map = new Map<number, number>();
    for (let i = 0; i < 16; i++) {
      makeRoom(map, 16);
      map.set(i, i);
    }
    assert.equal(map.size, 16);
    makeRoom(map, 16);
    assert.deepEqual([...map.keys()], [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  });

  it('leaves a map under its capacity alone, and room for one in a tiny one', () => {
    const map = new Map([['a', 1]]);
    makeRoom(map, 2);
    assert.deepEqual([...map.keys()], ['a']);
    makeRoom(map, 1);
    assert.equal(map.size, 0);
  });
});

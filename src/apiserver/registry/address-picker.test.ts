import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressPicker, staticBand } from './address-picker.js';

describe('picking an address nobody asked for', () => {
  it("sizes the static band as Kubernetes does (KEP-3070's cluster IPs, KEP-3668's node ports)", () => {
    assert.equal(staticBand(256, 'ip'), 16); // a /24: the floor of 16
    assert.equal(staticBand(4096, 'ip'), 256); // a /20: size/16
    assert.equal(staticBand(65536, 'ip'), 256); // a /16: the cap of 256
    assert.equal(staticBand(2768, 'port'), 86); // 30000-32767: size/32
    assert.equal(staticBand(100, 'port'), 16);
    assert.equal(staticBand(10000, 'port'), 128);
  });

  it('picks above the band, going on from the last pick and round, and falls back to the band only when nothing above is free', () => {
    const taken = new Set<number>();
    const picker = new AddressPicker({ first: 20, last: 24 }, { first: 10, last: 19 }, false);
    const pick = () => {
      const value = picker.pick((candidate) => !taken.has(candidate));
      if (value !== undefined) taken.add(value);
      return value;
    };
    assert.deepEqual([pick(), pick(), pick()], [20, 21, 22]);
    taken.delete(20); // freed behind the search: found again once the search comes round
    assert.deepEqual([pick(), pick(), pick()], [23, 24, 20]);
    taken.add(10);
    assert.deepEqual([pick(), pick()], [11, 12], 'the band, from its low end, once the range above it is full');
    taken.delete(22);
    assert.equal(pick(), 22, 'above the band again as soon as something there is free');
    for (let value = 13; value <= 19; value++) taken.add(value);
    assert.equal(pick(), undefined);
  });

  it('spread, starts at a random place above the band and never in it', () => {
    const firsts = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const first = new AddressPicker({ first: 100, last: 199 }, { first: 10, last: 99 }, true).pick(() => true)!;
      assert.ok(first >= 100 && first <= 199, `${first}`);
      firsts.add(first);
    }
    assert.ok(firsts.size > 20, `${firsts.size} different starts in 200`);
  });

  it('with nothing above the band (a range no larger than it), picks in the band', () => {
    const picker = new AddressPicker({ first: 17, last: 14 }, { first: 10, last: 14 }, true);
    assert.equal(
      picker.pick((value) => value !== 10),
      11,
    );
  });
});

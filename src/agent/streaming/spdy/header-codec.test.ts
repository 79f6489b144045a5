import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { constants, inflateSync } from 'node:zlib';
import { SPDY3_DICTIONARY } from './dictionary.js';
import { parseFrame } from './frames.js';
import { HeaderCompressor, HeaderDecompressor, decodeHeaderBlock, encodeHeaderBlock } from './header-codec.js';

/** Adler-32, as the zlib header names a preset dictionary. */
function adler32(bytes: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

// The first frame `kubectl port-forward` (v1.32, SPDY fallback) sent to a capturing agent: the
// SYN_STREAM of its error stream, header block compressed by Go's zlib with the dictionary.
const KUBECTL_SYN_STREAM =
  '800300010000003e0000000100000000000078f9e3c6a7c202253a703a2b294a4dcc851625aca9a0808614cb45e01c60616061c0c0c0c0590489c64c50f2663400000000ffff';

describe('SPDY header blocks', () => {
  it('has the dictionary Go and kubectl use (its zlib id 0xe3c6a7c2)', () => {
    // A zlib peer checks this id before it inflates anything, so it pins every byte that matters.
    assert.equal(SPDY3_DICTIONARY.length, 1423);
    assert.equal(adler32(SPDY3_DICTIONARY).toString(16), 'e3c6a7c2');
  });

  it('decodes the header block kubectl sent', async () => {
    const frame = parseFrame(Buffer.from(KUBECTL_SYN_STREAM, 'hex'));
    assert.equal(frame.kind, 'syn_stream');
    if (frame.kind !== 'syn_stream') return;
    const headers = await new HeaderDecompressor().decompress(frame.headerBlock);
    assert.deepEqual(Object.fromEntries(headers), { port: ['8080'], requestid: ['0'], streamtype: ['error'] });
  });

  it('encodes names in lower case and several values joined by NUL', () => {
    const block = encodeHeaderBlock({ StreamType: 'data', 'x-many': ['a', 'b'] });
    assert.deepEqual(Object.fromEntries(decodeHeaderBlock(block)), { streamtype: ['data'], 'x-many': ['a', 'b'] });
    assert.equal(block.readUInt32BE(0), 2);
    assert.throws(() => decodeHeaderBlock(block.subarray(0, 10)), /truncated/);
  });

  it('compresses block after block on one zlib stream that a standard inflater reads', async () => {
    const compressor = new HeaderCompressor();
    const blocks: Array<Record<string, string>> = [{ port: '80', streamtype: 'error' }, { port: '80', streamtype: 'data' }, {}];
    const compressed = [];
    for (const headers of blocks) compressed.push(await compressor.compress(headers));
    // Each block is complete on its own (sync flush) and names the SPDY dictionary.
    assert.equal(compressed[0]!.readUInt16BE(0) & 0x20, 0x20);
    assert.equal(compressed[0]!.readUInt32BE(2).toString(16), 'e3c6a7c2');
    const all = inflateSync(Buffer.concat(compressed), { dictionary: SPDY3_DICTIONARY, finishFlush: constants.Z_SYNC_FLUSH });
    assert.deepEqual(all, Buffer.concat(blocks.map((h) => encodeHeaderBlock(h))));
    const decompressor = new HeaderDecompressor();
    for (const [i, block] of compressed.entries()) {
      assert.deepEqual(Object.fromEntries(await decompressor.decompress(block)), Object.fromEntries(Object.entries(blocks[i]!).map(([k, v]) => [k, [v]])));
    }
    compressor.close();
    decompressor.close();
  });

  it('keeps concurrent calls in order', async () => {
    const compressor = new HeaderCompressor();
    const decompressor = new HeaderDecompressor();
    const compressed = await Promise.all(Array.from({ length: 20 }, (_, i) => compressor.compress({ n: String(i) })));
    const decoded = await Promise.all(compressed.map((block) => decompressor.decompress(block)));
    assert.deepEqual(
      decoded.map((h) => h.get('n')?.[0]),
      Array.from({ length: 20 }, (_, i) => String(i)),
    );
  });

  it('rejects garbage', async () => {
    await assert.rejects(new HeaderDecompressor().decompress(Buffer.from('not zlib at all')), /header block/);
  });
});

import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { FrameParser, demuxMerged, demuxSplit } from './demux.js';

function frame(stream: 1 | 2, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('FrameParser', () => {
  it('parses frames cut at every possible byte', () => {
    const wire = Buffer.concat([frame(1, 'hello '), frame(2, 'oops'), frame(1, 'world'), frame(1, '')]);
    for (let cut = 0; cut <= wire.length; cut++) {
      const parser = new FrameParser();
      const frames = [...parser.push(wire.subarray(0, cut)), ...parser.push(wire.subarray(cut))];
      assert.deepEqual(
        frames.map((f) => `${f.stream}:${f.payload.toString()}`),
        ['stdout:hello ', 'stderr:oops', 'stdout:world', 'stdout:'],
      );
      assert.equal(parser.pending, 0);
    }
  });

  it('holds an incomplete frame until the rest arrives', () => {
    const parser = new FrameParser();
    const wire = frame(2, 'abcdef');
    assert.deepEqual(parser.push(wire.subarray(0, 10)), []);
    assert.equal(parser.pending, 10);
    assert.equal(parser.push(wire.subarray(10))[0]?.payload.toString(), 'abcdef');
  });

  it('reads a byte-at-a-time stream', () => {
    const parser = new FrameParser();
    const wire = Buffer.concat([frame(1, 'x'.repeat(300)), frame(2, 'y')]);
    const got: string[] = [];
    for (const byte of wire) for (const f of parser.push(Buffer.from([byte]))) got.push(f.payload.toString());
    assert.deepEqual(got, ['x'.repeat(300), 'y']);
  });
});

describe('demux streams', () => {
  it('merges both outputs in order', async () => {
    const source = Readable.from([Buffer.concat([frame(1, 'a'), frame(2, 'b')]), frame(1, 'c')]);
    assert.equal(await text(demuxMerged(source)), 'abc');
  });

  it('splits stdout from stderr and ends both with the source', async () => {
    const source = Readable.from([Buffer.concat([frame(1, 'out1 '), frame(2, 'err1 ')]), frame(1, 'out2')]);
    const { stdout, stderr } = demuxSplit(source);
    const [out, err] = await Promise.all([text(stdout), text(stderr)]);
    assert.equal(out, 'out1 out2');
    assert.equal(err, 'err1 ');
  });

  it('carries a source error to the readers', async () => {
    const source = new PassThrough();
    const merged = demuxMerged(source);
    source.destroy(new Error('connection reset'));
    await assert.rejects(text(merged), /connection reset/);
  });

  it('keeps stderr flowing when the stdout reader has gone away', async () => {
    const source = new PassThrough();
    const { stdout, stderr } = demuxSplit(source);
    stdout.destroy();
    source.write(frame(1, 'lost'));
    source.end(frame(2, 'kept'));
    assert.equal(await text(stderr), 'kept');
  });
});

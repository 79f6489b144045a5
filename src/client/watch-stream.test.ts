import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NdjsonParser } from './watch-stream.js';

describe('NdjsonParser', () => {
  it('hands on each line as soon as it is complete, across arbitrary chunk boundaries', () => {
    const values: unknown[] = [];
    const parser = new NdjsonParser((value) => values.push(value));
    const text = '{"type":"ADDED","object":{"a":1}}\n{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}}\r\n\n{"type":"DELETED"}';
    for (let i = 0; i < text.length; i += 5) parser.push(text.slice(i, i + 5));
    assert.equal(values.length, 2);
    parser.end();
    assert.deepEqual(
      values.map((v) => (v as { type: string }).type),
      ['ADDED', 'BOOKMARK', 'DELETED'],
    );
  });

  it('keeps multi-byte characters split between chunks intact when fed decoded text', () => {
    const values: unknown[] = [];
    const parser = new NdjsonParser((value) => values.push(value));
    parser.push('{"m":"h');
    parser.push('é"}\n');
    assert.deepEqual(values, [{ m: 'hé' }]);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeFieldValue, parseFieldSelector, SelectorError, unescapeFieldValue } from './index.js';

const pod: Record<string, string> = { 'metadata.name': 'web-1', 'status.phase': 'Running', 'spec.nodeName': 'node-a' };
const get = (field: string): string | undefined => pod[field];

function rejects(text: string, message: string): void {
  assert.throws(
    () => parseFieldSelector(text),
    (error: unknown) => error instanceof SelectorError && error.message === message,
  );
}

describe('parseFieldSelector', () => {
  it('parses =, == and != into requirements', () => {
    assert.deepEqual(parseFieldSelector('status.phase=Running').requirements, [{ field: 'status.phase', operator: '=', value: 'Running' }]);
    assert.deepEqual(parseFieldSelector('status.phase==Running').requirements, [{ field: 'status.phase', operator: '=', value: 'Running' }]);
    assert.deepEqual(parseFieldSelector('status.phase!=Running').requirements, [{ field: 'status.phase', operator: '!=', value: 'Running' }]);
  });

  it('ANDs comma-separated terms, kept in sorted term order', () => {
    const selector = parseFieldSelector('status.phase=Running,metadata.name!=web-2');
    assert.deepEqual(
      selector.requirements.map((r) => r.field),
      ['metadata.name', 'status.phase'],
    );
    assert.equal(selector.matches(get), true);
    assert.equal(parseFieldSelector('status.phase=Running,spec.nodeName=node-b').matches(get), false);
  });

  it('matches by value, a missing field counting as empty', () => {
    assert.equal(parseFieldSelector('spec.nodeName=node-a').matches(get), true);
    assert.equal(parseFieldSelector('spec.nodeName!=node-a').matches(get), false);
    assert.equal(parseFieldSelector('spec.schedulerName=').matches(get), true);
    assert.equal(parseFieldSelector('spec.schedulerName!=x').matches(get), true);
    assert.equal(parseFieldSelector('spec.nodeName=').matches(get), false);
  });

  it('treats empty text and empty terms as no restriction', () => {
    const empty = parseFieldSelector('');
    assert.equal(empty.isEmpty(), true);
    assert.equal(
      empty.matches(() => undefined),
      true,
    );
    assert.equal(empty.toString(), '');
    assert.equal(parseFieldSelector('a=b,,c=d').requirements.length, 2);
    assert.equal(parseFieldSelector(',').isEmpty(), true);
  });

  it('unescapes \\\\, \\, and \\= in values', () => {
    assert.deepEqual(parseFieldSelector('a=x\\,y,b=p\\=q,c=back\\\\slash').requirements, [
      { field: 'a', operator: '=', value: 'x,y' },
      { field: 'b', operator: '=', value: 'p=q' },
      { field: 'c', operator: '=', value: 'back\\slash' },
    ]);
  });

  it('prints canonically with values escaped, and round-trips', () => {
    const selector = parseFieldSelector('b==x\\,y,a!=1');
    assert.equal(selector.toString(), 'a!=1,b=x\\,y');
    assert.deepEqual(parseFieldSelector(selector.toString()).requirements, selector.requirements);
  });

  it('takes the first operator from the left and keeps the field verbatim', () => {
    assert.deepEqual(parseFieldSelector('a!b=c').requirements, [{ field: 'a!b', operator: '=', value: 'c' }]);
    assert.deepEqual(parseFieldSelector(' a = b').requirements, [{ field: ' a ', operator: '=', value: ' b' }]);
  });

  it('reports the value a field must have', () => {
    const selector = parseFieldSelector('spec.nodeName=node-a,status.phase!=Failed');
    assert.equal(selector.requiresExactMatch('spec.nodeName'), 'node-a');
    assert.equal(selector.requiresExactMatch('status.phase'), undefined);
  });

  it('rejects terms without an operator', () => {
    rejects('status.phase', "invalid selector: 'status.phase'; can't understand 'status.phase'");
    rejects('a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'");
  });

  it('rejects an empty field name', () => {
    rejects('=x', "invalid selector: '=x'; can't understand '=x': the field name is empty");
  });

  it('rejects bad escaping', () => {
    rejects('a=b=c', "invalid field selector: unescaped character in value: '='");
    rejects('a=x\\y', 'invalid field selector: invalid escape sequence: \\y');
    rejects('a=x\\', 'invalid field selector: invalid escape sequence: \\');
  });
});

describe('escapeFieldValue / unescapeFieldValue', () => {
  it('are inverse', () => {
    for (const value of ['plain', 'a,b', 'a=b', 'a\\b', '\\,=', '']) {
      assert.equal(unescapeFieldValue(escapeFieldValue(value)), value);
    }
    assert.equal(escapeFieldValue('a,b=c\\d'), 'a\\,b\\=c\\\\d');
  });
});

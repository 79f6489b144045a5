import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldType, MessageSchema } from './messages/schema.js';
import { schemaFor, supportedKinds } from './registry.js';

const isMessage = (type: FieldType): type is MessageSchema => typeof type === 'object' && 'fields' in type;

function reachable(): MessageSchema[] {
  const seen = new Set<MessageSchema>();
  const visit = (schema: MessageSchema) => {
    if (seen.has(schema)) return;
    seen.add(schema);
    for (const spec of Object.values(schema.fields)) {
      if (isMessage(spec.type)) visit(spec.type);
      else if (typeof spec.type === 'object' && isMessage(spec.type.map.value)) visit(spec.type.map.value);
    }
  };
  for (const entry of supportedKinds()) {
    const slash = entry.lastIndexOf('/');
    const schema = schemaFor(entry.slice(0, slash), entry.slice(slash + 1));
    assert.ok(schema, entry);
    visit(schema);
  }
  return [...seen];
}

describe('message tables', () => {
  const schemas = reachable();

  it('cover a broad set of messages', () => {
    assert.ok(schemas.length > 150, `only ${schemas.length} messages`);
  });

  it('use valid field numbers and one JSON name per field', () => {
    for (const schema of schemas) {
      const names = new Set<string>();
      for (const [number, spec] of Object.entries(schema.fields)) {
        assert.ok(Number.isInteger(Number(number)) && Number(number) >= 1, `${schema.message} field ${number}`);
        if (spec.inline) continue;
        assert.ok(!names.has(spec.name), `${schema.message}.${spec.name} appears twice`);
        names.add(spec.name);
      }
    }
  });

  it('mark only messages inline and only scalars as kept', () => {
    for (const schema of schemas) {
      for (const spec of Object.values(schema.fields)) {
        if (spec.inline) assert.ok(isMessage(spec.type), `${schema.message}.${spec.name} is inline but not a message`);
        if (spec.keep) assert.ok(typeof spec.type === 'string', `${schema.message}.${spec.name} is kept but not a scalar`);
      }
    }
  });
});

// The door's estimate must never refuse what the store would take: it is a lower bound of the
// stored object, checked here against what a real server stores for bodies of every shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TestServer, sendRaw } from '../../../test/support/apiserver/in-process-server.js';
import { storedSizeLowerBound } from './stored-size.js';

const shapes: Array<Record<string, unknown>> = [
  { data: { a: 'b' } },
  { data: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key-${i}`, `value "${i}" \\ with escapes ü`])) },
  { data: { nested: 'x' }, binaryData: { b: 'AAAA' }, immutable: true },
];

test('the stored size of a created or applied object is never below the estimate', async () => {
  const server = await TestServer.start();
  try {
    for (const [i, shape] of shapes.entries()) {
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { a: 'b' } }, ...shape };
      const cm = '/api/v1/namespaces/default/configmaps';
      const created = await sendRaw(server.url, 'POST', `${cm}?fieldManager=creator`, JSON.stringify(body));
      assert.equal(created.status, 201);
      assert.ok(storedSizeLowerBound(body, true) <= Buffer.byteLength(created.text), `create of shape ${i}`);
      const applied = await sendRaw(server.url, 'PATCH', `${cm}/cm-${i}?fieldManager=applier&force=true`, JSON.stringify(body), {
        'Content-Type': 'application/apply-patch+yaml',
      });
      assert.equal(applied.status, 200);
      assert.ok(storedSizeLowerBound(body, true) <= Buffer.byteLength(applied.text), `apply of shape ${i}`);
    }
  } finally {
    await server.close();
  }
});

test('a body whose field ownership alone overflows the object limit is refused at the door', async () => {
  const server = await TestServer.start();
  try {
    const data = Object.fromEntries(Array.from({ length: 75_000 }, (_, i) => [`k${i}`, `v${i}`]));
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wide' }, data });
    const answer = await sendRaw(server.url, 'POST', '/api/v1/namespaces/default/configmaps?fieldManager=m', body);
    assert.equal(answer.status, 413);
    assert.match(answer.text, /the object is too large/);
  } finally {
    await server.close();
  }
});

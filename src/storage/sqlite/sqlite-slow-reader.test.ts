// A list stream that is read slowly must not hold history (and the file) back without bound, and
// the file must shrink again once history is compacted.
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { KubeObject } from '../../api/meta.js';
import { RevisionExpiredError } from '../errors.js';
import { openSqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'drover-slow-reader-'));
  dirs.push(dir);
  return join(dir, 'state.db');
}

async function filesSize(path: string): Promise<number> {
  const size = (file: string) =>
    stat(file).then(
      (info) => info.size,
      () => 0,
    );
  return (await size(path)) + (await size(`${path}-wal`));
}

function pod(name: string, padding: number): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { padding: 'x'.repeat(padding) } };
}

const MB = 2 ** 20;

describe('SqliteStore with a slow list reader', () => {
  it('bounds the history a list stream pins, cuts the stream instead, and shrinks the file after', async () => {
    const path = await tempPath();
    const window = 200;
    // No timer: the test compacts where the timer would.
    const store = await openSqliteStore({ path, historyWindow: window, compactIntervalMs: 3_600_000 });
    try {
      for (let i = 0; i < 300; i++) await store.create(`/registry/pods/default/live-${i}`, pod(`live-${i}`, 2_000));
      await store.compact();
      const baseline = await filesSize(path);

      const stream = store.listStream({ prefix: '/registry/pods/default/' });
      assert.ok(stream.next() !== undefined, 'the reader reads one page, then pauses');
      // 3,000 create+delete cycles of 4 KB pods: 6,000 history rows, ~24 MB if all were kept.
      let largest = 0;
      for (let i = 0; i < 3_000; i++) {
        const key = `/registry/pods/default/churn-${i}`;
        await store.create(key, pod(`churn-${i}`, 4_000));
        await store.delete(key);
        if (i % 250 === 249) {
          await store.compact();
          largest = Math.max(largest, await filesSize(path));
        }
      }
      assert.ok(largest - baseline < 8 * MB, `files grew by ${((largest - baseline) / MB).toFixed(1)} MB under churn with a pinned reader`);
      assert.throws(() => stream.next(), RevisionExpiredError, 'the reader whose history was compacted away is cut');

      await store.compact();
      const final = await filesSize(path);
      assert.ok(final - baseline < 2 * MB, `files ended ${((final - baseline) / MB).toFixed(1)} MB above where they started`);
    } finally {
      await store.close();
    }
  });

  it('switches an existing database to incremental auto-vacuum when it opens it', async () => {
    const path = await tempPath();
    const old = new Database(path);
    old.exec('CREATE TABLE leftover (x); INSERT INTO leftover VALUES (1);');
    assert.equal(old.pragma('auto_vacuum', { simple: true }), 0);
    old.close();
    const store = await openSqliteStore({ path });
    await store.close();
    const reopened = new Database(path, { readonly: true });
    try {
      assert.equal(reopened.pragma('auto_vacuum', { simple: true }), 2, 'INCREMENTAL');
      assert.equal(reopened.prepare('SELECT x FROM leftover').pluck().get(), 1);
    } finally {
      reopened.close();
    }
  });
});

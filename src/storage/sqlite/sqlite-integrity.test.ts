import assert from 'node:assert/strict';
import { open, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from './sqlite-store.js';

describe('SqliteStore.quickCheck', () => {
  it('is empty for a sound file and names the damage in a corrupted one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'drover-integrity-'));
    const path = join(dir, 'state.db');
    try {
      let store = await openSqliteStore({ path });
      for (let i = 0; i < 400; i++) {
        await store.create(`/registry/configmaps/default/c${i}`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `c${i}`, namespace: 'default' },
          data: { v: 'x'.repeat(400) },
        });
      }
      assert.deepEqual(store.quickCheck(), []);
      await store.close();
      // Damage the page of the key index (checkpointed into the file at close): the store still
      // opens and reads by range, but the index no longer matches the table.
      const db = new Database(path, { readonly: true });
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'kv'`).pluck().get() as number;
      db.close();
      const file = await open(path, 'r+');
      await file.write(Buffer.alloc(64, 0x5a), 0, 64, (root - 1) * pageSize + 100);
      await file.close();
      store = await openSqliteStore({ path });
      const problems = store.quickCheck();
      await store.close();
      assert.match(problems.join('\n'), /page \d+/, 'the damage is found, page by page');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

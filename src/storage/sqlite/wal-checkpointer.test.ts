// The WAL checkpointer against real SQLite files: when it checkpoints, that writes wait for it,
// what it leaves on disk, and that it lets go of everything when closed.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from './sqlite-schema.js';
import { openSqliteStore } from './sqlite-store.js';
import { CHECKPOINT_WAL_BYTES, WalCheckpointer } from './wal-checkpointer.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'drover-checkpoint-'));
  dirs.push(dir);
  return join(dir, 'state.db');
}

async function openFiles(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  return Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
}

const walSize = (path: string) => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { padding: 'x'.repeat(3000) } });

describe('WalCheckpointer', () => {
  it('takes the syncs from SQLite, checkpoints once the WAL reaches its mark, and the next write starts the WAL again', async () => {
    const path = await tempPath();
    const db = openDatabase(path, 'normal');
    let releases = 0;
    const checkpointer = new WalCheckpointer(db, path, () => releases++);
    assert.equal(db.pragma('synchronous', { simple: true }), 0, 'synchronous=OFF: no fsync inside a commit');
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
    const insert = db.prepare('INSERT INTO kv (key, revision, value) VALUES (?, ?, ?)');
    let rows = 0;
    const write = () => insert.run(`/registry/k-${rows}`, ++rows, 'x'.repeat(3000));
    write();
    checkpointer.committed();
    assert.equal(checkpointer.holdsWrites, false, 'a small WAL is only flushed');
    while (walSize(path) < CHECKPOINT_WAL_BYTES + 64 * 1024) write();
    checkpointer.committed();
    assert.equal(checkpointer.holdsWrites, true, 'the WAL past its mark starts a checkpoint, which holds writes at once');
    await checkpointer.writable();
    assert.equal(checkpointer.holdsWrites, false);
    assert.equal(releases, 1, 'the store is told once that writes may go on');
    // Everything was copied, so the next write begins the WAL again: it holds that write alone.
    write();
    const [after] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    assert.ok(after!.log > 0 && after!.log < 8, `the WAL holds ${after!.log} frames after one more write`);
    await checkpointer.close();
    assert.equal(db.pragma('synchronous', { simple: true }), 1, 'closed: SQLite syncs by itself again (NORMAL)');
    db.close();
    const reopened = openDatabase(path, 'normal');
    assert.equal(reopened.prepare('SELECT count(*) FROM kv').pluck().get(), rows);
    reopened.close();
  });

  it('holds the store’s writes while it syncs, commits them after it, and the compactor’s checkpoint empties the WAL file', async () => {
    const path = await tempPath();
    const store = await openSqliteStore({ path, compactIntervalMs: 3_600_000 });
    try {
      for (let i = 0; i < 20; i++) await store.create(`/registry/pods/default/p-${i}`, pod(`p-${i}`));
      const checkpointer = (store as unknown as { checkpointer: WalCheckpointer }).checkpointer;
      const checkpoint = checkpointer.checkpoint();
      const writes = Array.from({ length: 5 }, (_, i) =>
        store.create(`/registry/pods/default/held-${i}`, pod(`held-${i}`)).then((created) => ({
          revision: Number(created.metadata.resourceVersion),
          committedWhileHeld: checkpointer.holdsWrites,
        })),
      );
      assert.equal(checkpointer.holdsWrites, true, 'the writes were made while the checkpoint held writes');
      const outcomes = await Promise.all(writes);
      await checkpoint;
      assert.deepEqual(
        outcomes.map((o) => o.committedWhileHeld),
        [false, false, false, false, false],
        'no write commits while the checkpoint holds them',
      );
      const revisions = outcomes.map((o) => o.revision);
      assert.deepEqual(
        revisions,
        [...revisions].sort((a, b) => a - b),
      );
      assert.ok(walSize(path) > 0);
      await store.compact();
      assert.equal(walSize(path), 0, 'the compactor checkpoints with TRUNCATE');
    } finally {
      await store.close();
    }
    assert.ok(!(await openFiles()).some((file) => file.startsWith(path)), 'closed: no descriptor of the database or its WAL is left');
    const reopened = await openSqliteStore({ path });
    try {
      assert.ok(await reopened.get('/registry/pods/default/held-4'));
    } finally {
      await reopened.close();
    }
  });
});

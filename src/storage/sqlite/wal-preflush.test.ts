import assert from 'node:assert/strict';
import { mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { WalPreflusher } from './wal-preflush.js';

/** The files this process holds open. */
async function openFiles(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets;
}

describe('WalPreflusher', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('waits for the WAL to exist, flushes it, and closes it when closed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-preflush-'));
    const wal = join(dir, 'state.db-wal');
    const preflusher = new WalPreflusher(wal);
    // No WAL yet: nothing to flush, nothing opened, no error.
    preflusher.committed();
    assert.ok(!(await openFiles()).includes(wal));
    await writeFile(wal, 'frames');
    preflusher.committed();
    assert.ok((await openFiles()).includes(wal));
    // A second commit right away does not start a second flush; close waits for the running one.
    preflusher.committed();
    await preflusher.close();
    assert.ok(!(await openFiles()).includes(wal));
    // Commits after close are ignored.
    preflusher.committed();
    assert.ok(!(await openFiles()).includes(wal));
  });
});

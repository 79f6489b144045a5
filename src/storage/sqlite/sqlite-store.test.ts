import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { RevisionExpiredError, StoreClosedError } from '../errors.js';
import type { ListResult } from '../store.js';
import { reopenableHarness, runStoreContract, type StoreHarness } from '../../../test/support/storage/store-contract.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'drover-sqlite-'));
  dirs.push(dir);
  return join(dir, 'state.db');
}

async function harness(options: Omit<SqliteStoreOptions, 'path'> = {}): Promise<StoreHarness> {
  const path = await tempPath();
  return reopenableHarness(
    () => openSqliteStore({ ...options, path }),
    async (store) => store.compact(await store.currentRevision()),
  );
}

runStoreContract('sqlite', () => harness());

function pod(name: string, padding: number, labels: Record<string, string> = {}): KubeObject {
  const metadata = { name, namespace: 'default', labels };
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: { padding: 'x'.repeat(padding) } };
}

async function fileSize(path: string): Promise<number> {
  return stat(path).then(
    (info) => info.size,
    () => 0,
  );
}

// The child writes until it is killed, printing `key revision` after each write is acknowledged.
const WRITER = `
const { openSqliteStore } = await import(process.env.STORE_MODULE);
const store = await openSqliteStore({ path: process.env.STORE_PATH });
const spec = { padding: 'x'.repeat(1000) };
const pod = (name, v) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { v } }, spec });
for (let i = 0; ; i++) {
  const key = '/registry/pods/default/k-' + i;
  const created = await store.create(key, pod('k-' + i, '1'));
  process.stdout.write(key + ' ' + created.metadata.resourceVersion + '\\n');
  if (i > 0) {
    const previous = '/registry/pods/default/k-' + (i - 1);
    const updated = await store.update(previous, pod('k-' + (i - 1), '2'));
    process.stdout.write(previous + ' ' + updated.metadata.resourceVersion + '\\n');
  }
}
`;

/** Runs WRITER against `path`, SIGKILLs it after `acks` acknowledged writes, returns key → revision. */
async function killWriterMidStream(path: string, acks: number): Promise<Map<string, number>> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER], {
    env: { ...process.env, STORE_MODULE: new URL('./sqlite-store.js', import.meta.url).href, STORE_PATH: path },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    if (output.split('\n').length > acks) child.kill('SIGKILL');
  });
  assert.equal(await exited, 'SIGKILL');
  const acknowledged = new Map<string, number>();
  // Only complete lines are acknowledgements; a torn last line is a write we never heard of.
  for (const line of output.split('\n').slice(0, -1)) {
    const [key, revision] = line.split(' ');
    acknowledged.set(key as string, Number(revision));
  }
  return acknowledged;
}

describe('SqliteStore', () => {
  it('keeps every acknowledged write when the process is killed with SIGKILL', async () => {
    const path = await tempPath();
    const acknowledged = await killWriterMidStream(path, 600);
    assert.ok(acknowledged.size >= 300);
    const store = await openSqliteStore({ path });
    try {
      const newest = Math.max(...acknowledged.values());
      assert.ok((await store.currentRevision()) >= newest);
      for (const [key, revision] of acknowledged) {
        const object = await store.get(key);
        assert.ok(object !== undefined, `${key} (revision ${revision}) was lost`);
        assert.ok(Number(object.metadata.resourceVersion) >= revision, `${key} went back before revision ${revision}`);
      }
      const next = await store.create('/registry/pods/default/after-crash', pod('after-crash', 10));
      assert.ok(Number(next.metadata.resourceVersion) > newest);
    } finally {
      await store.close();
    }
  });

  it('keeps the database and WAL files bounded under churn', async () => {
    const path = await tempPath();
    const window = 100;
    const store = await openSqliteStore({ path, historyWindow: window, compactIntervalMs: 50 });
    const keys = Array.from({ length: 6 }, (_, i) => `/registry/pods/default/churn-${i}`);
    for (const key of keys) await store.create(key, pod(key, 500));
    let largest = 0;
    for (let i = 0; i < 30_000; i++) {
      const key = keys[i % keys.length] as string;
      await store.update(key, pod(key, 500, { i: `${i}` }));
      // Lets the compaction timer run, as request I/O would in a server.
      if (i % 250 === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        largest = Math.max(largest, (await fileSize(path)) + (await fileSize(`${path}-wal`)));
      }
    }
    await store.compact();
    const current = await store.currentRevision();
    assert.equal(await store.oldestRevision(), current - window);
    const final = (await fileSize(path)) + (await fileSize(`${path}-wal`));
    await store.close();
    // 30,000 updates wrote ~30 MB of values and history; without compaction the file holds all of
    // it. The WAL alone may reach ~4 MB (SQLite's auto-checkpoint point) between checkpoints.
    assert.ok(largest < 8e6, `files reached ${(largest / 1e6).toFixed(1)} MB`);
    assert.ok(final < 2e6, `files ended at ${(final / 1e6).toFixed(1)} MB`);
  });

  it('expires watches and continue tokens older than the history window, across reopen', async () => {
    const path = await tempPath();
    let store = await openSqliteStore({ path, historyWindow: 10 });
    let page: ListResult | undefined;
    for (let i = 0; i < 50; i++) {
      await store.create(`/registry/pods/default/p-${100 + i}`, pod(`p-${i}`, 10));
      if (i === 19) page = await store.list({ prefix: '/registry/pods/', limit: 5 });
    }
    assert.equal(page?.revision, 20);
    await store.update('/registry/pods/default/p-100', pod('p-100', 20));
    await store.compact();
    assert.equal(await store.oldestRevision(), 41);
    await store.close();

    store = await openSqliteStore({ path, historyWindow: 10 });
    try {
      assert.equal(await store.oldestRevision(), 41);
      assert.throws(
        () => store.watch({ prefix: '/registry/pods/', fromRevision: 40 }, () => undefined),
        (error: unknown) => error instanceof RevisionExpiredError && error.requested === 40 && error.oldest === 41,
      );
      const continued = store.list({ prefix: '/registry/pods/', limit: 5, continue: page?.continue });
      await assert.rejects(continued, RevisionExpiredError);
      const replayed: number[] = [];
      await new Promise<void>((resolve) => {
        store.watch({ prefix: '/registry/pods/', fromRevision: 41 }, (event) => {
          replayed.push(event.revision);
          if (event.revision === 51) resolve();
        });
      });
      assert.deepEqual(
        replayed,
        Array.from({ length: 10 }, (_, i) => 42 + i),
      );
    } finally {
      await store.close();
    }
  });

  it('ends open watches with StoreClosedError on close', async () => {
    const store = await openSqliteStore({ path: await tempPath() });
    const errors: Error[] = [];
    const events: number[] = [];
    store.watch(
      { prefix: '/' },
      (event) => events.push(event.revision),
      (error) => errors.push(error),
    );
    await store.create('/registry/pods/default/a', pod('a', 10));
    await store.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, [1]);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof StoreClosedError);
  });

  it('refuses a second opener while the file is held', async () => {
    const path = await tempPath();
    const store = await openSqliteStore({ path });
    try {
      await assert.rejects(openSqliteStore({ path }), /in use by another process/);
    } finally {
      await store.close();
    }
    const again = await openSqliteStore({ path });
    await again.close();
  });
});

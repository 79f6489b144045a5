import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuditLogFile, backupName, listBackups } from './log-file.js';

describe('audit log file', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'audit-log-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it("names backups as kube-apiserver's lumberjack does", () => {
    assert.equal(backupName('/var/log/audit.log', new Date('2026-11-25T21:00:00.000Z')), '/var/log/audit-2026-11-25T21-00-00.000.log');
  });

  it('writes every queued line by close(), owner-only, tightening a file that was open to others', async () => {
    const path = join(dir, 'plain.log');
    await writeFile(path, 'earlier\n', { mode: 0o644 });
    const log = await AuditLogFile.open(path, { maxSizeBytes: 0, maxBackups: 0 });
    for (let i = 0; i < 1000; i++) log.write(`{"n":${i}}`);
    await log.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    assert.equal(lines.length, 1001);
    assert.equal(lines[1000], '{"n":999}');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  });

  it('rotates before a line would take the file past the limit, and keeps maxBackups backups', async () => {
    const sub = await mkdtemp(join(dir, 'rotate-'));
    const path = join(sub, 'audit.log');
    const log = await AuditLogFile.open(path, { maxSizeBytes: 1000, maxBackups: 2 });
    const line = 'x'.repeat(99); // 100 bytes with its newline: 10 lines fill a file
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 10; i++) log.write(line);
      // Let each round go out before the next, so rotations get distinct times.
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    log.write('last');
    await log.close();
    const backups = await listBackups(path);
    assert.equal(backups.length, 2, `kept: ${(await readdir(sub)).join(', ')}`);
    for (const backup of backups) {
      assert.equal((await stat(backup)).size, 1000);
      assert.equal((await stat(backup)).mode & 0o777, 0o600);
    }
    assert.equal(await readFile(path, 'utf8'), 'last\n');
    assert.equal((await readdir(sub)).length, 3);
  });

  it('puts a line longer than the whole limit in a file of its own', async () => {
    const sub = await mkdtemp(join(dir, 'long-'));
    const path = join(sub, 'audit.log');
    const log = await AuditLogFile.open(path, { maxSizeBytes: 10, maxBackups: 0 });
    log.write('a');
    log.write('b'.repeat(50));
    log.write('c');
    await log.close();
    const backups = await listBackups(path);
    assert.deepEqual(await Promise.all(backups.map((b) => readFile(b, 'utf8'))), ['a\n', `${'b'.repeat(50)}\n`]);
    assert.equal(await readFile(path, 'utf8'), 'c\n');
  });
});

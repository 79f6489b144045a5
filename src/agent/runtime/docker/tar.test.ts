import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeTar } from './tar.js';

describe('writeTar', () => {
  it('writes an archive GNU tar extracts with modes and symlinks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'drover-tar-'));
    try {
      const archive = writeTar([
        { type: 'dir', path: 'bin' },
        { type: 'dir', path: 'tmp', mode: 0o1777 },
        { type: 'file', path: 'bin/tool', content: Buffer.from('#!/bin/sh\necho hi\n'), mode: 0o755 },
        { type: 'symlink', path: 'bin/alias', target: '/bin/tool' },
        { type: 'file', path: 'big', content: Buffer.alloc(1500, 7) },
      ]);
      assert.equal(archive.length % 512, 0);
      writeFileSync(join(dir, 'a.tar'), archive);
      execFileSync('tar', ['-xf', 'a.tar', '--no-same-owner'], { cwd: dir });
      assert.equal(readFileSync(join(dir, 'bin/tool'), 'utf8'), '#!/bin/sh\necho hi\n');
      assert.equal(statSync(join(dir, 'bin/tool')).mode & 0o777, 0o755);
      assert.equal(statSync(join(dir, 'tmp')).mode & 0o7777, 0o1777);
      assert.equal(readlinkSync(join(dir, 'bin/alias')), '/bin/tool');
      assert.deepEqual(readFileSync(join(dir, 'big')), Buffer.alloc(1500, 7));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses names ustar cannot hold', () => {
    assert.throws(() => writeTar([{ type: 'dir', path: 'x'.repeat(120) }]), /path too long/);
  });
});

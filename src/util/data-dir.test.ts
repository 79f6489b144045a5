import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { prepareDataDir, UnusableDataDirError } from './data-dir.js';

describe('prepareDataDir', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-data-dir-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('resolves a relative path against the working directory and creates it', async () => {
    const wanted = join(dir, 'a', 'b');
    const prepared = await prepareDataDir(relative(process.cwd(), wanted));
    assert.equal(prepared, wanted);
    assert.equal((await stat(wanted)).isDirectory(), true);
    assert.equal(await prepareDataDir(wanted), wanted, 'an existing directory is fine');
  });

  it('refuses a file where the directory should be, and a file in the way of a parent', async () => {
    const file = join(dir, 'file');
    await writeFile(file, 'x');
    await assert.rejects(prepareDataDir(file), (error: Error) => error instanceof UnusableDataDirError && /a file is in the way/.test(error.message));
    await assert.rejects(prepareDataDir(join(file, 'sub')), (error: Error) => error instanceof UnusableDataDirError && /a parent/.test(error.message));
  });
});

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { pathKind, resolvePathOptions } from './paths.js';

describe('CLI path options', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-cli-paths-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const command = () => new Command('x').option('--data-dir <dir>', 'data').option('--kubeconfig <path>', 'file').option('--name <name>', 'not a path');

  it('knows a path option by the name of its argument', () => {
    assert.equal(pathKind({ flags: '--data-dir <dir>' }), 'dir');
    assert.equal(pathKind({ flags: '--kubeconfig <path>' }), 'file');
    assert.equal(pathKind({ flags: '--token-auth-file <file>' }), 'file');
    assert.equal(pathKind({ flags: '--node-name <name>' }), undefined);
    assert.equal(pathKind({ flags: '--no-control-plane' }), undefined);
  });

  it('makes every path absolute before the action runs, and leaves other values alone', async () => {
    const data = join(dir, 'data');
    const parsed = command().parse(['--data-dir', data, '--kubeconfig', 'some/kubeconfig', '--name', 'a/b'], { from: 'user' });
    await resolvePathOptions(parsed);
    assert.deepEqual(parsed.opts(), { dataDir: data, kubeconfig: resolve('some/kubeconfig'), name: 'a/b' });
  });

  it('turns an unusable data dir into one line naming the flag', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const parsed = command().parse(['--data-dir', file], { from: 'user' });
    await assert.rejects(resolvePathOptions(parsed), { message: `--data-dir ${file}: cannot create ${file}: a file is in the way` });
  });
});

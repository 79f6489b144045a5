// A fresh clone of this checkout in a temporary folder: the files git would check out (the
// working tree's, so uncommitted edits are what gets tested) and none of what a build or a run
// leaves behind (dist, .drover). node_modules is copied, not installed: no registry can be
// reached here. A copy, not a link, so that an `npm install` in the clone writes only there.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FreshClone {
  /** The clone's root, where its README's commands are typed. */
  root: string;
  remove(): Promise<void>;
}

export async function freshClone(checkout: string): Promise<FreshClone> {
  const parent = await mkdtemp(join(tmpdir(), 'drover-clone-'));
  const root = join(parent, 'drover');
  try {
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: checkout, encoding: 'utf8' })
      .split('\0')
      // A linked node_modules is not ignored by `node_modules/` (a pattern for folders); a
      // tracked file deleted in the working tree is not there to copy.
      .filter((file) => file && file !== 'node_modules' && existsSync(join(checkout, file)));
    for (const file of files) await cp(join(checkout, file), join(root, file), { recursive: true, verbatimSymlinks: true });
    // cp(1): tens of thousands of small files go several times faster than with fs.cp.
    execFileSync('cp', ['-a', realpathSync(join(checkout, 'node_modules')), join(root, 'node_modules')]);
  } catch (error) {
    await rm(parent, { recursive: true, force: true });
    throw error;
  }
  return { root, remove: () => rm(parent, { recursive: true, force: true }) };
}

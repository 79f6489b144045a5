// Object names are unique, as Docker's are: names/<name> holds the owner's id,
// created with O_EXCL so that two creates of the same pod container cannot both win.

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { namesRoot, type ProcessContext } from './context.js';
import { isENOENT } from './records.js';
import { NameConflictError } from '../errors.js';

/** `ownerExists` tells a live owner from one whose removal was cut short. */
export async function claimName(ctx: ProcessContext, name: string, id: string, ownerExists: (id: string) => Promise<boolean>): Promise<void> {
  await mkdir(namesRoot(ctx), { recursive: true });
  const path = join(namesRoot(ctx), name);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, id, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await readFile(path, 'utf8').catch(() => '');
    if (owner && (await ownerExists(owner))) break;
    await rm(path, { force: true });
  }
  throw new NameConflictError(name);
}

/** Releases the name if `id` still holds it. */
export async function releaseName(ctx: ProcessContext, name: string, id: string): Promise<void> {
  const path = join(namesRoot(ctx), name);
  try {
    if ((await readFile(path, 'utf8')) === id) await rm(path, { force: true });
  } catch (err) {
    if (!isENOENT(err)) throw err;
  }
}

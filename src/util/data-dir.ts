// A data directory made ready before anything starts. Its path is made absolute because the
// agent hands paths under it to Docker, which refuses relative bind mounts: a relative
// `--data-dir` used to start a cluster whose every pod failed with CreateContainerError.
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/** Thrown when the directory cannot hold the data; the message is one line for a person. */
export class UnusableDataDirError extends Error {
  override name = 'UnusableDataDirError';
}

/**
 * Resolves `dir` against the working directory, creates it when missing, and checks that it
 * is a directory this process may write to. Returns the absolute path. Idempotent.
 */
export async function prepareDataDir(dir: string): Promise<string> {
  const absolute = resolve(dir);
  try {
    await mkdir(absolute, { recursive: true });
  } catch (error) {
    throw new UnusableDataDirError(`cannot create ${absolute}: ${reason(error)}`);
  }
  // mkdir succeeds on an existing path only when it is a directory, but says nothing of a
  // symlink to a file; stat follows links, as every later use will.
  if (!(await stat(absolute)).isDirectory()) throw new UnusableDataDirError(`${absolute} is not a directory`);
  try {
    await access(absolute, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new UnusableDataDirError(`${absolute} is not writable: ${reason(error)}`);
  }
  return absolute;
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return 'a file is in the way';
  if (code === 'ENOTDIR') return 'a file is in the way of a parent directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  return error instanceof Error ? error.message : String(error);
}

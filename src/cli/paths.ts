// Every path the CLI takes is resolved here, once, before a command runs: nothing downstream
// sees a relative path, and a data directory that cannot be used is a one-line error at start
// instead of a pod failing later. Which options are paths is read from their argument's name
// in the flags, so a new option is covered by writing it the same way:
//   `--data-dir <dir>`               a data directory: resolved, created, checked writable
//   `--kubeconfig <path>`, `<file>`  a file: resolved against the working directory
import type { Command, Option } from 'commander';
import { resolve } from 'node:path';
import { prepareDataDir } from '../util/data-dir.js';

export type PathKind = 'dir' | 'file';

/** What kind of path the option takes, from the argument name in its flags, if any. */
export function pathKind(option: Pick<Option, 'flags'>): PathKind | undefined {
  const argument = /<(\w+)>|\[(\w+)\]/.exec(option.flags);
  const name = argument?.[1] ?? argument?.[2];
  if (name === 'dir') return 'dir';
  if (name === 'path' || name === 'file') return 'file';
  return undefined;
}

/** Replaces the value of every path option of `command` with its absolute form. */
export async function resolvePathOptions(command: Command): Promise<void> {
  for (const option of command.options) {
    const kind = pathKind(option);
    const key = option.attributeName();
    const value: unknown = command.getOptionValue(key);
    if (!kind || typeof value !== 'string') continue;
    try {
      command.setOptionValue(key, kind === 'dir' ? await prepareDataDir(value) : resolve(value));
    } catch (error) {
      throw new Error(`${option.long ?? option.flags} ${value}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

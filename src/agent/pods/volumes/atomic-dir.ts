// Writes a set of files into a directory so that readers never see a half-updated set, as the
// kubelet's AtomicWriter does for configMap, secret and downwardAPI volumes: the files live in
// a hidden timestamped directory, `..data` is a symlink to it swapped with one rename, and each
// visible name is a symlink through `..data`. Keys removed from the source disappear.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface FileContent {
  content: Buffer;
  mode: number;
}

const DATA = '..data';

async function current(dir: string, files: ReadonlyMap<string, FileContent>): Promise<boolean> {
  try {
    const target = await readlink(join(dir, DATA));
    const names = await listFiles(join(dir, target));
    if (names.length !== files.size) return false;
    for (const [path, file] of files) {
      const existing = await readFile(join(dir, target, path));
      if (!existing.equals(file.content)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out;
}

/** Replaces the directory's visible content with `files` (paths relative, no `..`). */
export async function writeAtomicDir(dir: string, files: ReadonlyMap<string, FileContent>): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  if (await current(dir, files)) return;
  const stamp = `..${new Date().toISOString().replace(/[-:.]/g, '_')}.${randomBytes(4).toString('hex')}`;
  const staging = join(dir, stamp);
  for (const [path, file] of files) {
    const target = join(staging, path);
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    await writeFile(target, file.content);
    await chmod(target, file.mode);
  }
  await mkdir(staging, { recursive: true, mode: 0o755 });
  const old = await readlink(join(dir, DATA)).catch(() => undefined);
  await symlink(stamp, join(dir, `${DATA}_tmp`));
  await rename(join(dir, `${DATA}_tmp`), join(dir, DATA));
  await linkTopLevel(dir, files);
  if (old && old !== stamp) await rm(join(dir, old), { recursive: true, force: true });
}

async function linkTopLevel(dir: string, files: ReadonlyMap<string, FileContent>): Promise<void> {
  const wanted = new Set([...files.keys()].map((p) => p.split('/')[0]!));
  for (const name of wanted) {
    const link = join(dir, name);
    const existing = await readlink(link).catch(() => undefined);
    if (existing === join(DATA, name)) continue;
    await rm(link, { recursive: true, force: true });
    await symlink(join(DATA, name), link);
  }
  for (const entry of await readdir(dir)) {
    if (entry.startsWith('..') || wanted.has(entry)) continue;
    await rm(join(dir, entry), { recursive: true, force: true });
  }
}

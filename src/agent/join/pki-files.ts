// The agent's credentials in its data dir, as k3s keeps an agent's: `<data-dir>/pki/ca.crt` (the
// cluster CA it verifies servers with), `client.key` and `client.crt` (its node identity). The
// key is a node's whole identity: the folder is 0700 and every file 0600, and each file is
// written to a temporary name and renamed, so a crash mid-write never leaves a key without its
// certificate's counterpart half-written.
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface PkiFiles {
  caPem: string;
  keyPem: string;
  certPem: string;
}

export function pkiDir(dataDir: string): string {
  return join(dataDir, 'pki');
}

export async function readPkiFiles(dataDir: string): Promise<PkiFiles | undefined> {
  const dir = pkiDir(dataDir);
  try {
    const [caPem, keyPem, certPem] = await Promise.all(['ca.crt', 'client.key', 'client.crt'].map((file) => readFile(join(dir, file), 'utf8')));
    return { caPem: caPem!, keyPem: keyPem!, certPem: certPem! };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function writePkiFiles(dataDir: string, files: PkiFiles): Promise<void> {
  const dir = pkiDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  // The certificate last: a reader that finds it finds the key it belongs to.
  for (const [file, text] of [
    ['ca.crt', files.caPem],
    ['client.key', files.keyPem],
    ['client.crt', files.certPem],
  ] as const) {
    const path = join(dir, file);
    await writeFile(`${path}.tmp`, text, { mode: 0o600 });
    await rename(`${path}.tmp`, path);
  }
}

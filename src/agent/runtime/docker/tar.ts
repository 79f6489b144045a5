// A minimal ustar writer: enough to hand Docker a root filesystem of a few files,
// directories and symlinks (the pause image) without a tar binary or package.

export type TarEntry =
  | { type: 'dir'; path: string; mode?: number }
  | { type: 'file'; path: string; content: Buffer; mode?: number }
  | { type: 'symlink'; path: string; target: string };

const BLOCK = 512;

function octal(value: number, width: number): string {
  // width includes the terminating NUL
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(entry: TarEntry, size: number): Buffer {
  const buf = Buffer.alloc(BLOCK, 0);
  const name = entry.type === 'dir' && !entry.path.endsWith('/') ? `${entry.path}/` : entry.path;
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: path too long: ${name}`);
  const defaultMode = entry.type === 'file' ? 0o644 : entry.type === 'dir' ? 0o755 : 0o777;
  const mode = entry.type === 'symlink' ? 0o777 : (entry.mode ?? defaultMode);
  buf.write(name, 0, 100, 'utf8');
  buf.write(octal(mode, 8), 100, 8, 'ascii');
  buf.write(octal(0, 8), 108, 8, 'ascii'); // uid
  buf.write(octal(0, 8), 116, 8, 'ascii'); // gid
  buf.write(octal(size, 12), 124, 12, 'ascii');
  buf.write(octal(0, 12), 136, 12, 'ascii'); // mtime: fixed, so the same input gives the same layer
  buf.write(entry.type === 'file' ? '0' : entry.type === 'dir' ? '5' : '2', 156, 1, 'ascii');
  if (entry.type === 'symlink') buf.write(entry.target, 157, 100, 'utf8');
  buf.write('ustar\u000000', 257, 8, 'ascii');
  // The checksum is computed with its own field read as eight spaces.
  buf.write('        ', 148, 8, 'ascii');
  let sum = 0;
  for (const byte of buf) sum += byte;
  buf.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return buf;
}

/** The whole archive in memory; the entries here are a few megabytes at most. */
export function writeTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = entry.type === 'file' ? entry.content : Buffer.alloc(0);
    parts.push(header(entry, content.length), content);
    const pad = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}

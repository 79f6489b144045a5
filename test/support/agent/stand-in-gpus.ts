// The stand-in nvidia-smi (test/fixtures/nvidia-smi) in a directory of its own, with a GPU list
// the test edits: CI has no GPU, and this is the one fake the GPU tests use.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../repo.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'nvidia-smi');

export interface StandInGpus {
  /** Put this first on the agent's PATH. */
  dir: string;
  /** The 8 H100s' lines (header first), as in the fixture. */
  lines(): string[];
  write(lines: string[]): void;
  uuids(): string[];
  /** The GPUs' pci.bus_id as nvidia-smi prints it ("00000000:18:00.0"), in index order. */
  busIds(): string[];
  remove(): void;
}

export function standInNvidiaSmi(): StandInGpus {
  const dir = mkdtempSync(join(tmpdir(), 'drover-nvidia-smi-'));
  copyFileSync(join(FIXTURES, 'nvidia-smi'), join(dir, 'nvidia-smi'));
  const file = join(dir, 'gpus.csv');
  const original = readFileSync(join(FIXTURES, 'gpus-h100x8.csv'), 'utf8');
  writeFileSync(file, original);
  const lines = (): string[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
  return {
    dir,
    lines,
    write: (next) => writeFileSync(`${file}`, `${next.join('\n')}\n`),
    uuids: () =>
      original
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split(', ')[1]!),
    busIds: () =>
      original
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split(', ')[4]!),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

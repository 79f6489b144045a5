// The tree stays formatted: prettier (.prettierrc.json; .prettierignore says what it leaves
// alone) would change no file. `npm run format` writes what this test reports.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from './support/repo.js';

const run = promisify(execFile);

describe('formatting', () => {
  it('prettier would change no file', { timeout: 300_000 }, async () => {
    const prettier = join(REPO_ROOT, 'node_modules', '.bin', 'prettier');
    const outcome = await run(prettier, ['--list-different', '.'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout }) => stdout,
      (error: { code?: number; stdout?: string; stderr?: string }) => {
        // prettier --list-different exits 1 when it lists files; anything else is its own failure.
        if (error.code === 1 && error.stdout) return error.stdout;
        throw new Error(`prettier failed: ${error.stderr ?? ''}`);
      },
    );
    assert.deepEqual(outcome.split('\n').filter(Boolean), [], 'files prettier would change (run `npm run format`)');
  });
});

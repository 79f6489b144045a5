// The repository's root and its scripts, for tests that prepare the real parts they need (Docker
// Engine, the local test images) the way `npm test` does, so that one test file run alone works.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Compiled, this file is dist/test/support/repo.js: three folders below the root. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** Runs scripts/<name>; a failure throws with the script's output, naming what needed it. */
export function runRepoScript(name: string, neededFor: string): void {
  try {
    execFileSync('bash', [resolve(REPO_ROOT, 'scripts', name)], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer; message: string };
    throw new Error(`${name} failed — ${neededFor}:\n${e.stderr?.toString() ?? ''}${e.stdout?.toString() ?? ''}${e.message}`);
  }
}

/** Starts Docker and builds the test images; throws (loudly) when Docker cannot be had. */
export function ensureDocker(): void {
  runRepoScript('ensure-docker.sh', 'these tests need a real Docker Engine');
  runRepoScript('build-test-images.sh', 'these tests need the local test images');
}

// What `npm pack` would publish: the compiled product and nothing of the tests. Unit tests sit
// beside their code (src/**/*.test.ts) and test support lives in test/support/, so the package's
// `files` list and tsconfig.build.json (the product build) must keep both out.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT as ROOT } from './support/repo.js';

const run = promisify(execFile);

async function packedFiles(): Promise<string[]> {
  // --ignore-scripts: `prepare` would rebuild; the suite's build already made dist/.
  const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  return pack!.files.map((file) => file.path);
}

describe('the published package', () => {
  it('holds the CLI, the compiled product and the dashboard, and no test code', async () => {
    const files = await packedFiles();
    for (const needed of ['bin/drover.js', 'dist/src/cli/main.js', 'dist/ui/index.html']) assert.ok(files.includes(needed), `${needed} is packed`);
    assert.deepEqual(
      files.filter((path) => /\.test\.js(\.map)?$/.test(path)),
      [],
      'no compiled unit tests',
    );
    assert.deepEqual(
      files.filter((path) => /^(dist\/)?(test|bench)\//.test(path)),
      [],
      'no test support, end-to-end tests or benchmarks',
    );
    assert.deepEqual(
      files.filter((path) => /^src\/.*\.ts$/.test(path)),
      [],
      'no TypeScript sources',
    );
  });

  it('is built from src/ alone: no product file imports test code', async () => {
    const { stdout } = await run('npx', ['tsc', '-p', 'tsconfig.build.json', '--listFilesOnly'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const projectFiles = stdout
      .split('\n')
      .filter((line) => line !== '' && !line.includes('/node_modules/'))
      .map((line) => relative(ROOT, line));
    assert.ok(projectFiles.includes('src/cli/main.ts'), 'the build compiles the CLI');
    assert.deepEqual(
      projectFiles.filter((path) => !path.startsWith('src/')),
      [],
      'every compiled file is under src/',
    );
    assert.deepEqual(
      projectFiles.filter((path) => path.endsWith('.test.ts')),
      [],
      'no unit test is compiled',
    );
  });
});

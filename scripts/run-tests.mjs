// Runs every compiled test file (dist/**/*.test.js) with Node's own test runner.
// Node 20's --test does not expand globs itself, so the files are found here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  let found = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found = found.concat(findTests(path));
    else if (entry.endsWith('.test.js')) found.push(path);
  }
  return found;
}

const filter = process.argv[2];
const files = ['dist/src', 'dist/test']
  .flatMap((dir) => {
    try {
      return findTests(dir);
    } catch {
      return [];
    }
  })
  .filter((file) => !filter || file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=300000', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);

import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { installSupervisor } from './supervisor.js';
import { SUPERVISOR_PERL } from './supervisor-perl.js';

describe('installSupervisor', () => {
  it('the first starts of several containers at once install the script once, and every one of them gets it', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'drover-supervisor-'));
    try {
      const paths = await Promise.all(Array.from({ length: 8 }, () => installSupervisor(stateDir)));
      assert.equal(new Set(paths).size, 1);
      assert.equal(await readFile(paths[0]!, 'utf8'), SUPERVISOR_PERL);
      assert.deepEqual(
        (await readdir(join(stateDir, 'bin'))).filter((name) => name.endsWith('.tmp')),
        [],
        'no temporary file left',
      );
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});

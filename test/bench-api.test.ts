// bench:api's pieces work (nothing here is timed): the no-security peer's patch still applies to
// this checkout, as the bench's header tells one to apply it, and a process's CPU read from /proc
// agrees with what Node counts for itself.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { cpuSecondsOf, ownCpuSeconds } from '../bench/process-cpu.js';
import { REPO_ROOT } from './support/repo.js';

describe('bench:api', () => {
  it('bench/no-security.patch applies to this checkout', () => {
    // Throws, with git's words for the hunk that no longer fits, when it does not.
    execFileSync('git', ['apply', '--check', 'bench/no-security.patch'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  });

  it("reads a process's CPU time from /proc as Node counts it", () => {
    const until = Date.now() + 300;
    let spin = 0;
    while (Date.now() < until) spin++;
    assert.ok(spin > 0);
    const fromProc = cpuSecondsOf(process.pid);
    const own = ownCpuSeconds();
    // /proc counts in ticks of 10 ms.
    assert.ok(fromProc > 0.25, `/proc says ${fromProc} s`);
    assert.ok(Math.abs(fromProc - own) < 0.05, `/proc says ${fromProc} s, Node ${own} s`);
  });
});

import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KernelLog, kernelMessage } from './kernel-log.js';

describe('kernel log follower', () => {
  it('strips the /dev/kmsg prefix; a line without one stays as it is', () => {
    assert.equal(
      kernelMessage('4,1021,88812345,-;NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.'),
      'NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.',
    );
    assert.equal(kernelMessage('NVRM: a; b'), 'NVRM: a; b');
  });

  it('follows a file: every consumer gets each new line once, the first batch marked as replayed, dictionary lines and a half-written line held back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drover-kernel-log-'));
    const file = join(dir, 'kmsg');
    const log = new KernelLog(file);
    try {
      writeFileSync(file, '6,1,100,-;old line\n SUBSYSTEM=pci\n');
      const seen: Array<[string, string[], boolean]> = [];
      log.consume((m, replayed) => void seen.push(['a', m, replayed]));
      log.consume((m, replayed) => void seen.push(['b', m, replayed]));
      await log.poll();
      appendFileSync(file, '6,2,200,-;new line\n6,3,300,-;half');
      await log.poll();
      await log.poll(); // nothing new: no call
      appendFileSync(file, ' written\n');
      await log.poll();
      assert.deepEqual(seen, [
        ['a', ['old line'], true],
        ['b', ['old line'], true],
        ['a', ['new line'], false],
        ['b', ['new line'], false],
        ['a', ['half written'], false],
        ['b', ['half written'], false],
      ]);
    } finally {
      await log.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports nothing where there is no kernel log to read', async () => {
    const log = new KernelLog('/nonexistent/kmsg');
    let calls = 0;
    log.consume(() => void calls++);
    assert.deepEqual(await log.read(), []);
    await log.poll();
    assert.equal(calls, 0);
  });
});

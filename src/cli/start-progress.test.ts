import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { alreadyReported, hintFor, startProgress } from './start-progress.js';

/** A stream that is not a terminal, holding what was written. */
function pipe(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = { isTTY: false, write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

describe('start progress', () => {
  it('writes one line per finished step, numbered, in a pipe', () => {
    const out = pipe();
    const progress = startProgress('drover up', ['store', 'api', 'node'], out.stream);
    progress.onPhase('store');
    progress.onPhase('api');
    progress.onPhase('node');
    progress.done();
    const lines = out.text().trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^drover up: \[1\/3\] opening the store: done in \d+\.\d s$/);
    assert.match(lines[2]!, /^drover up: \[3\/3\] starting the node .*: done in/);
  });

  it('names the failed step and says what to do', () => {
    const out = pipe();
    const progress = startProgress('drover server', ['store', 'api'], out.stream);
    progress.onPhase('store');
    progress.onPhase('api');
    const error = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:6443'), { code: 'EADDRINUSE' });
    progress.failed(error);
    assert.match(out.text(), /\[2\/2\] starting the API server: FAILED after .* s: listen EADDRINUSE/);
    assert.match(out.text(), /what to do: the port is in use/);
    assert.equal(alreadyReported(error), true);
    assert.equal(alreadyReported(new Error('other')), false);
  });

  it('knows the causes a user can mend', () => {
    assert.match(hintFor(new Error('SqliteError: database is locked'))!, /--data-dir/);
    assert.match(hintFor(new Error('etcd unavailable at http://127.0.0.1:2379'))!, /etcdctl endpoint health/);
    assert.match(hintFor(new Error('docker: connect ENOENT /var/run/docker.sock'))!, /ensure-docker\.sh/);
    assert.equal(hintFor(new Error('something else')), undefined);
  });
});

// The carry-out's bookkeeping, without a server: which writes it makes in which order, what the
// outcome reports, and that the owner's expectations end up waiting for exactly the events the
// successful writes will bring.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { ApiStatusError, Expectations } from '../../client/index.js';
import { carryOut, type Writes } from './pass.js';

const object = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: `uid-${name}` } });

/** Writes that log each call; names in `failing` fail, and in `gone` are NotFound. */
function writes(options: { failing?: string[]; gone?: string[]; taken?: string[]; creations?: 'all' | 'slow-start' } = {}) {
  const log: string[] = [];
  const expectations = new Expectations();
  const w: Writes<string, KubeObject, KubeObject> = {
    expectations,
    key: 'ns/owner',
    ...(options.creations ? { creations: options.creations } : {}),
    async create(name) {
      log.push(`create ${name}`);
      if (options.failing?.includes(name)) throw new Error(`cannot create ${name}`);
      return options.taken?.includes(name) ? undefined : object(name);
    },
    async delete(o) {
      const name = o.metadata.name!;
      log.push(`delete ${name}`);
      if (options.gone?.includes(name))
        throw new ApiStatusError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: `${name} not found` });
      if (options.failing?.includes(name)) throw new Error(`cannot delete ${name}`);
    },
  };
  return { w, log, expectations };
}

describe('carrying out a pass', () => {
  it('makes no write and sets no expectation for no changes', async () => {
    const { w, log, expectations } = writes();
    const outcome = await carryOut({ creations: [], deletions: [] }, w);
    assert.deepEqual(log, []);
    assert.deepEqual(outcome, { created: [], deleted: [], errors: [] });
    assert.equal(expectations.pending('ns/owner'), undefined);
  });

  it('deletes before it creates, and waits for an event of every write', async () => {
    const { w, log, expectations } = writes();
    const outcome = await carryOut({ creations: ['a', 'b'], deletions: [object('old')] }, w);
    assert.deepEqual(log, ['delete old', 'create a', 'create b']);
    assert.deepEqual(
      outcome.created.map((c) => [c.item, c.object.metadata.name]),
      [
        ['a', 'a'],
        ['b', 'b'],
      ],
    );
    assert.deepEqual(
      outcome.deleted.map((o) => o.metadata.name),
      ['old'],
    );
    assert.deepEqual(expectations.pending('ns/owner'), { adds: 2, dels: 1 });
    expectations.deletionObserved('ns/owner', 'ns/old');
    expectations.deletionObserved('ns/owner', 'ns/old'); // seen twice (terminating, then gone): counts once
    expectations.creationObserved('ns/owner');
    assert.equal(expectations.satisfied('ns/owner'), false);
    expectations.creationObserved('ns/owner');
    assert.equal(expectations.satisfied('ns/owner'), true);
  });

  it('stops creating at the first failed slow-start batch, and expects nothing of what failed or never ran', async () => {
    const { w, log, expectations } = writes({ failing: ['b'] });
    const outcome = await carryOut({ creations: ['a', 'b', 'c', 'd', 'e'], deletions: [] }, w);
    // Batches: [a], then [b, c] fails, so [d, e] never runs.
    assert.deepEqual(log, ['create a', 'create b', 'create c']);
    assert.deepEqual(
      outcome.created.map((c) => c.item),
      ['a', 'c'],
    );
    assert.equal(outcome.errors.length, 1);
    assert.match(String((outcome.errors[0] as Error).message), /cannot create b/);
    assert.deepEqual(expectations.pending('ns/owner'), { adds: 2, dels: 0 });
  });

  it('creates all at once when asked, and a name already taken brings no event to wait for', async () => {
    const { w, log, expectations } = writes({ failing: ['b'], taken: ['c'], creations: 'all' });
    const outcome = await carryOut({ creations: ['a', 'b', 'c', 'd'], deletions: [] }, w);
    assert.deepEqual(log, ['create a', 'create b', 'create c', 'create d']);
    assert.deepEqual(
      outcome.created.map((c) => c.item),
      ['a', 'd'],
    );
    assert.equal(outcome.errors.length, 1);
    assert.deepEqual(expectations.pending('ns/owner'), { adds: 2, dels: 0 });
  });

  it('counts an object already gone as deleted, and a failed deletion as an error it stops waiting for', async () => {
    const { w, expectations } = writes({ gone: ['x'], failing: ['y'] });
    const outcome = await carryOut({ creations: [], deletions: [object('x'), object('y'), object('z')] }, w);
    assert.deepEqual(
      outcome.deleted.map((o) => o.metadata.name),
      ['x', 'z'],
    );
    assert.equal(outcome.errors.length, 1);
    assert.match(String((outcome.errors[0] as Error).message), /cannot delete y/);
    assert.deepEqual(expectations.pending('ns/owner'), { adds: 0, dels: 1 });
    expectations.deletionObserved('ns/owner', 'ns/z');
    assert.equal(expectations.satisfied('ns/owner'), true);
  });

  it('keeps expectations per key where the controller keeps several per owner', async () => {
    const { w, expectations } = writes({ failing: ['worker-1'], creations: 'all' });
    const byType = {
      ...w,
      key: { creation: (name: string) => `job/${name.split('-')[0]}`, deletion: (o: KubeObject) => `job/${o.metadata.name!.split('-')[0]}` },
    };
    await carryOut({ creations: ['master-0', 'worker-0', 'worker-1'], deletions: [object('worker-2')] }, byType);
    assert.deepEqual(expectations.pending('job/master'), { adds: 1, dels: 0 });
    // worker-1 failed: of the workers only worker-0's creation and worker-2's deletion are awaited.
    assert.deepEqual(expectations.pending('job/worker'), { adds: 1, dels: 1 });
  });
});

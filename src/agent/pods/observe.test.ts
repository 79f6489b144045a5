// The inspection cache: exited containers do not change, except that Docker may mark one
// OOMKilled after the exit was seen (the OOM event's forget() must win even over an inspection
// that was already on its way), or lose the mark while still sending the event.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ContainerRuntime, ContainerStatus } from '../runtime/runtime.js';
import { InspectCache } from './observe.js';

function exited(oomKilled: boolean): ContainerStatus {
  return { state: 'exited', oomKilled } as Partial<ContainerStatus> as ContainerStatus;
}

/** A runtime whose inspections answer when the test says, with what Docker holds at the call. */
function slowRuntime(): { runtime: ContainerRuntime; holds: { oomKilled: boolean }; release: () => void; calls: () => number } {
  const holds = { oomKilled: false };
  let calls = 0;
  let waiting: Array<() => void> = [];
  const runtime = {
    inspectContainer: async () => {
      calls++;
      const answer = exited(holds.oomKilled);
      await new Promise<void>((resolve) => waiting.push(resolve));
      return answer;
    },
  } as unknown as ContainerRuntime;
  const release = () => {
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  return { runtime, holds, release, calls: () => calls };
}

it('caches an exited container, and drops it on forget()', async () => {
  const { runtime, holds, release, calls } = slowRuntime();
  const cache = new InspectCache();
  const answer = cache.inspect(runtime, 'c1');
  release();
  assert.equal((await answer).oomKilled, false);
  assert.equal((await cache.inspect(runtime, 'c1')).oomKilled, false);
  assert.equal(calls(), 1, 'the second read came from the cache');
  holds.oomKilled = true;
  cache.forget('c1');
  const again = cache.inspect(runtime, 'c1');
  release();
  assert.equal((await again).oomKilled, true);
});

it('does not keep an inspection that was running when forget() came', async () => {
  const { runtime, holds, release } = slowRuntime();
  const cache = new InspectCache();
  const inFlight = cache.inspect(runtime, 'c2');
  // The OOM event arrives while the engine is still answering with the old state.
  holds.oomKilled = true;
  cache.forget('c2');
  release();
  assert.equal((await inFlight).oomKilled, false, 'the old answer, for the sync that asked');
  const next = cache.inspect(runtime, 'c2');
  release();
  assert.equal((await next).oomKilled, true, 'the next sync asks again and sees OOMKilled');
});

it('reports an OOM kill the engine sent an event for, even when its inspection lost the mark', async () => {
  const { runtime, release } = slowRuntime();
  const cache = new InspectCache();
  const before = cache.inspect(runtime, 'c3');
  release();
  assert.equal((await before).oomKilled, false);
  // Docker's state says oomKilled: false (the exit overwrote it), but its oom event came.
  cache.sawOomKill('c3');
  const after = cache.inspect(runtime, 'c3');
  release();
  assert.equal((await after).oomKilled, true);
});

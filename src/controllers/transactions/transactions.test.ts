import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { ANNOTATION_CHANGED_BY } from '../../api/transaction-operations.js';
import { resources } from '../../client/index.js';
import { componentRegistry } from '../../metrics/component-metrics.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { KEEP_PER_TARGET, TransactionController } from './transaction-controller.js';
import { LABEL_TARGET_UID, type Transaction } from './types.js';
import { waitFor } from '../../../test/support/wait-for.js';

describe('transactions', () => {
  const bed = useControllerTest((ctx) => new TransactionController(ctx));

  async function workload(name: string): Promise<KubeObject> {
    return bed.api.resource(resources.configmaps, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  }

  async function transactionsOf(target: KubeObject): Promise<Transaction[]> {
    const list = await bed.api.resource<Transaction>(resources.transactions, 'default').list({ labelSelector: { [LABEL_TARGET_UID]: target.metadata.uid! } });
    return list.items;
  }

  it('records an operation from Running through its progress to Succeeded', async () => {
    const target = await workload('web');
    const recorder = bed.manager.ctx.transactions;
    await recorder.begin(target, 'launch', { reason: 'created', total: 3 });
    await recorder.begin(target, 'launch', { reason: 'created', total: 3, done: 1 }); // a second pass: same transaction
    await recorder.progress(target, 'launch', 2, 3);
    let [tx, ...rest] = await transactionsOf(target);
    assert.equal(rest.length, 0);
    assert.equal(tx?.spec.operation, 'launch');
    assert.equal(tx?.spec.lifePeriodSeconds, 1800);
    assert.deepEqual([tx?.status?.phase, tx?.status?.progress], ['Running', '2/3']);
    assert.ok(tx?.metadata.name?.startsWith('web-launch-'));
    await recorder.finish(target, 'launch', 'Succeeded', 'all 3 replicas available');
    [tx] = await transactionsOf(target);
    assert.equal(tx?.status?.phase, 'Succeeded');
    assert.ok(tx?.status?.completionTime);
    assert.match(await componentRegistry.metrics(), /drover_operations_total\{operation="launch",result="Succeeded"\} \d+/);
  });

  it('names the user who caused the operation: the one the API server put on the target', async () => {
    const target = await bed.api.resource(resources.configmaps, 'default').create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'changed', annotations: { [ANNOTATION_CHANGED_BY]: 'alice' } },
    });
    await bed.manager.ctx.transactions.begin(target, 'scale', { reason: 'replicas changed from 1 to 2', total: 2 });
    const [tx] = await transactionsOf(target);
    assert.equal(tx?.spec.user, 'alice');
    const unnamed = await workload('unnamed');
    await bed.manager.ctx.transactions.begin(unnamed, 'scale', { reason: 'replicas changed from 1 to 2', total: 2 });
    assert.equal((await transactionsOf(unnamed))[0]?.spec.user, undefined);
  });

  it('opens a new transaction for an operation begun right after the last one finished', async () => {
    const target = await workload('again');
    const recorder = bed.manager.ctx.transactions;
    await recorder.begin(target, 'scale', { reason: 'replicas 1 → 2', total: 2 });
    await recorder.finish(target, 'scale', 'Succeeded');
    // The informer may not have seen the finish yet: the next begin must not mistake it for open.
    await recorder.begin(target, 'scale', { reason: 'replicas 2 → 3', total: 3 });
    assert.ok(recorder.isOpen(target, 'scale'));
    const phases = (await transactionsOf(target)).map((tx) => `${tx.spec.reason}:${tx.status?.phase}`).sort();
    assert.deepEqual(phases, ['replicas 1 → 2:Succeeded', 'replicas 2 → 3:Running']);
  });

  it('supersedes a running operation whose goal changed', async () => {
    const target = await workload('api');
    const recorder = bed.manager.ctx.transactions;
    await recorder.begin(target, 'scale', { reason: 'replicas 3 → 5', total: 5 });
    await recorder.begin(target, 'scale', { reason: 'replicas 5 → 2', total: 2, supersede: true });
    const phases = (await transactionsOf(target)).map((tx) => `${tx.spec.reason}:${tx.status?.phase}`).sort();
    assert.deepEqual(phases, ['replicas 3 → 5:Failed', 'replicas 5 → 2:Running']);
  });

  it('times out a transaction that outlives its life period, with a Warning event on the workload', async () => {
    const target = await workload('slow');
    await bed.manager.ctx.transactions.begin(target, 'update', { reason: 'rolling step', total: 4, lifePeriodSeconds: 1 });
    await waitFor('TimedOut', async () => (await transactionsOf(target))[0]?.status?.phase === 'TimedOut', 5000);
    const [tx] = await transactionsOf(target);
    assert.match(tx?.status?.message ?? '', /did not finish within 1s \(progress 0\/4\)/);
    await waitFor(
      'a TransactionTimedOut event',
      async () => {
        const events = await bed.api.resource(resources.events, 'default').list({ fieldSelector: { 'involvedObject.name': 'slow' } });
        return events.items.some((event) => event['reason'] === 'TransactionTimedOut' && event['type'] === 'Warning');
      },
      5000,
    );
    // The recorder must not revive it: a late finish leaves the phase alone.
    await bed.manager.ctx.transactions.finish(target, 'update', 'Succeeded');
    assert.equal((await transactionsOf(target))[0]?.status?.phase, 'TimedOut');
  });

  it(`keeps the newest ${KEEP_PER_TARGET} finished transactions of a workload`, async () => {
    const target = await workload('busy');
    const recorder = bed.manager.ctx.transactions;
    for (let i = 0; i < KEEP_PER_TARGET + 5; i++) await recorder.once(target, 'reschedule', { reason: `pod ${i} failed` }, 'Succeeded');
    await waitFor('pruning', async () => (await transactionsOf(target)).length === KEEP_PER_TARGET, 10_000);
    const reasons = new Set((await transactionsOf(target)).map((tx) => tx.spec.reason));
    assert.ok(reasons.has(`pod ${KEEP_PER_TARGET + 4} failed`), 'the newest is kept');
    assert.ok(!reasons.has('pod 0 failed'), 'the oldest is gone');
  });
});

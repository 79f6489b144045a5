// The controller shape against an in-process API server: which keys the events of a primary and
// of its owned objects enqueue, adoption enqueues, expectations, predicates and forget. The
// probe controller's reconcile only records the keys it is handed (one worker: keys in order).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { Expectations, resources } from '../../client/index.js';
import { waitFor } from '../../../test/support/wait-for.js';
import type { ControllerContext } from '../context.js';
import { labelSelectorOf } from '../replicaset/replicated-kinds.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { useControllerTest } from '../../../test/support/controllers/controller-test.js';
import { WorkloadController } from './workload-controller.js';

class Probe extends WorkloadController<ReplicaSet> {
  readonly expectations = new Expectations();
  /** Keys in the order reconcile was handed them. */
  readonly seen: string[] = [];
  readonly forgotten: string[] = [];

  constructor(ctx: ControllerContext) {
    super(ctx, {
      name: 'probe',
      resource: resources.replicasets,
      workers: 1,
      // Status writes alone do not enqueue.
      predicates: { update: (old, rs) => old.metadata.generation !== rs.metadata.generation },
    });
    this.owns(resources.pods, {
      adoptableBy: (rs, pod) => labelSelectorOf(rs).matches(pod.metadata.labels),
      expectations: { store: this.expectations, by: 'key' },
    });
  }

  protected async reconcile(key: string): Promise<void> {
    this.seen.push(key);
  }

  protected override forget(rs: Readonly<ReplicaSet>): void {
    this.forgotten.push(rs.metadata.name ?? '');
  }
}

describe('the controller shape', () => {
  const bed = useControllerTest((ctx) => (probe = new Probe(ctx)));
  let probe: Probe;

  const sets = () => bed.api.resource<ReplicaSet>(resources.replicasets, 'default');
  const pods = () => bed.api.resource(resources.pods, 'default');
  const set = (name: string, app: string) =>
    sets().create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name },
      spec: { replicas: 0, selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
  const pod = (name: string, labels: Record<string, string>, owner?: Readonly<KubeObject>) => {
    const metadata: KubeObject['metadata'] = { name, labels };
    if (owner)
      metadata.ownerReferences = [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true }];
    return pods().create({ apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'c', image: 'i' }] } });
  };
  /** Waits until reconcile was handed `key` after the first `from` keys; returns the keys handed since `from`. */
  const handed = (key: string, from: number) =>
    waitFor(`reconcile of ${key}`, () => {
      const since = probe.seen.slice(from);
      return since.includes(key) ? since : undefined;
    });

  it('enqueues a primary when it appears, and not for a status write the predicate filters out', async () => {
    const web = await set('web', 'web');
    await handed('default/web', 0);
    const mark = probe.seen.length;
    await sets().updateStatus({ ...web, status: { replicas: 0, observedGeneration: 1 } });
    // A later event that must enqueue: everything before it has been handled by then (one worker).
    await set('marker-1', 'none');
    const since = await handed('default/marker-1', mark);
    assert.deepEqual(
      since.filter((key) => key === 'default/web'),
      [],
      'the status write was filtered out',
    );
  });

  it("enqueues an owned object's controller, and counts its creation against the owner's expectations", async () => {
    const api2 = await sets()
      .get('api-owner')
      .catch(() => set('api-owner', 'api'));
    await handed('default/api-owner', 0);
    probe.expectations.expectCreations('default/api-owner', 1);
    assert.equal(probe.expectations.satisfied('default/api-owner'), false);
    const mark = probe.seen.length;
    await pod('api-0', { app: 'api' }, api2);
    await handed('default/api-owner', mark);
    assert.equal(probe.expectations.satisfied('default/api-owner'), true, 'the pod seen created meets the expectation');
  });

  it('enqueues the sets that could adopt an orphan, and only those', async () => {
    await set('batch', 'batch');
    await set('other', 'other');
    await handed('default/other', 0);
    const mark = probe.seen.length;
    await pod('orphan-0', { app: 'batch' });
    await set('marker-2', 'none');
    const since = await handed('default/marker-2', mark);
    assert.ok(since.includes('default/batch'), 'the set whose selector matches looks at the orphan');
    assert.ok(!since.includes('default/other'), 'a set whose selector does not match is not bothered');
  });

  it('forgets a deleted primary and enqueues its key, so that reconcile sees it gone', async () => {
    await set('gone', 'gone');
    await handed('default/gone', 0);
    const mark = probe.seen.length;
    await sets().delete('gone');
    await handed('default/gone', mark);
    assert.ok(probe.forgotten.includes('gone'));
  });
});

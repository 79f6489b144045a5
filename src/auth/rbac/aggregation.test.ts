// The clusterrole-aggregation controller against a real SQLite store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { keyFor } from '../../apiserver/registry/keys.js';
import { ClusterRoleAggregator, aggregatedRules } from './aggregation.js';
import { RBAC, WRITE, clusterRole, openTestStore, type TestStore } from '../../../test/support/auth/rbac-store.js';
import { waitFor } from '../../../test/support/wait-for.js';

const clusterRoles = findResource(RBAC, 'v1', 'clusterroles')!;
const LABEL = 'example.com/aggregate-to-monitoring';

describe('ClusterRole aggregation', () => {
  let t: TestStore;
  let aggregator: ClusterRoleAggregator;

  async function rulesOf(name: string): Promise<unknown> {
    return (await t.store.get(keyFor(clusterRoles, undefined, name)))?.['rules'];
  }

  async function rulesBecome(name: string, expected: unknown): Promise<void> {
    await waitFor(
      `the rules of ${name}`,
      async () => {
        assert.deepEqual(await rulesOf(name), expected);
        return true;
      },
      5000,
    );
  }

  before(async () => {
    t = await openTestStore([]);
    await t.create(clusterRole('b-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { [LABEL]: 'true' }));
    await t.create({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'monitoring' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [LABEL]: 'true' } }] },
    });
    aggregator = new ClusterRoleAggregator(t.registry);
    await aggregator.start();
  });
  after(async () => {
    aggregator.stop();
    await t.close();
  });

  it('fills an aggregated role from the roles its selectors match at start', async () => {
    await rulesBecome('monitoring', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    const stored = await t.store.get(keyFor(clusterRoles, undefined, 'monitoring'));
    assert.ok(stored?.metadata.managedFields?.some((f) => f.manager === 'clusterrole-aggregation-controller'));
  });

  it('adds the rules of a newly labelled role, in name order, each distinct rule once', async () => {
    await t.create(
      clusterRole(
        'a-services',
        [
          { verbs: ['list'], apiGroups: [''], resources: ['services'] },
          { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        ],
        { [LABEL]: 'true' },
      ),
    );
    await rulesBecome('monitoring', [
      { verbs: ['list'], apiGroups: [''], resources: ['services'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    ]);
  });

  it('follows rule changes, label removals and deletions', async () => {
    const b = (await t.store.get(keyFor(clusterRoles, undefined, 'b-pods')))!;
    b['rules'] = [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['nodes'] }];
    await t.registry.update(clusterRoles, undefined, 'b-pods', b, WRITE);
    await rulesBecome('monitoring', [
      { verbs: ['list'], apiGroups: [''], resources: ['services'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get', 'watch'], apiGroups: [''], resources: ['nodes'] },
    ]);
    const a = (await t.store.get(keyFor(clusterRoles, undefined, 'a-services')))!;
    a.metadata.labels = {};
    await t.registry.update(clusterRoles, undefined, 'a-services', a, WRITE);
    await rulesBecome('monitoring', [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['nodes'] }]);
    await t.registry.delete(clusterRoles, undefined, 'b-pods', { dryRun: false });
    await rulesBecome('monitoring', []);
  });

  it('overwrites rules edited by hand, and aggregates aggregates', async () => {
    const m = (await t.store.get(keyFor(clusterRoles, undefined, 'monitoring')))!;
    m['rules'] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
    m.metadata.labels = { 'example.com/aggregate-to-top': 'true' };
    await t.registry.update(clusterRoles, undefined, 'monitoring', m, WRITE);
    await t.create({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'top' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-top': 'true' } }] },
    });
    await rulesBecome('monitoring', []);
    await t.create(clusterRole('c-events', [{ verbs: ['list'], apiGroups: [''], resources: ['events'] }], { [LABEL]: 'true' }));
    await rulesBecome('monitoring', [{ verbs: ['list'], apiGroups: [''], resources: ['events'] }]);
    await rulesBecome('top', [{ verbs: ['list'], apiGroups: [''], resources: ['events'] }]);
  });

  it('never aggregates a role into itself', () => {
    const self: KubeObject = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'self', labels: { x: 'y' } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    };
    assert.deepEqual(aggregatedRules(self, new Map([['self', self]])), []);
  });
});

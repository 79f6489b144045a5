import { type Service, SERVICE_NAME_LABEL, type EndpointSlice } from '../../api/services.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MANAGED_BY, MANAGED_BY_LABEL, planSlices, type SlicePlan } from './slices.js';
import type { Pod } from '../../api/core/index.js';

function pod(i: number, options: { ready?: boolean; ips?: string[]; http?: number } = {}): Pod {
  const ips = options.ips ?? [`10.${Math.floor(i / 65536) % 256}.${Math.floor(i / 256) % 256}.${i % 256}`];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${i}`, namespace: 'default', uid: `uid-${i}`, labels: { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'main', ports: options.http ? [{ name: 'http', containerPort: options.http }] : [] }] },
    status: {
      phase: 'Running',
      podIP: ips[0],
      podIPs: ips.map((ip) => ({ ip })),
      conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
    },
  };
}

function service(spec: Service['spec'] = {}): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default', uid: 'svc-uid', labels: { team: 'a' } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ipFamilies: ['IPv4'], ...spec },
  };
}

let counter = 0;
/** Applies a plan as the API server would: names and resourceVersions for creates. */
function apply(existing: EndpointSlice[], plan: SlicePlan): EndpointSlice[] {
  const deleted = new Set(plan.delete.map((s) => s.metadata.name));
  const updated = new Map(plan.update.map((s) => [s.metadata.name, s]));
  const kept = existing.filter((s) => !deleted.has(s.metadata.name)).map((s) => updated.get(s.metadata.name) ?? s);
  const created = plan.create.map((s) => ({ ...s, metadata: { ...s.metadata, name: `web-${++counter}` } }));
  return [...kept, ...created];
}

const count = (slices: EndpointSlice[]) => slices.reduce((n, s) => n + (s.endpoints ?? []).length, 0);
const writes = (plan: SlicePlan) => plan.create.length + plan.update.length + plan.delete.length;

describe('planSlices', () => {
  it('creates slices of at most the maximum size, labelled and owned by the service', () => {
    const plan = planSlices(
      service(),
      [1, 2, 3, 4, 5].map((i) => pod(i)),
      [],
      { maxPerSlice: 2 },
    );
    assert.equal(plan.create.length, 3);
    assert.deepEqual(
      plan.create.map((s) => s.endpoints!.length),
      [2, 2, 1],
    );
    const [first] = plan.create;
    assert.deepEqual(first!.metadata.labels, { team: 'a', [SERVICE_NAME_LABEL]: 'web', [MANAGED_BY_LABEL]: MANAGED_BY });
    assert.equal(first!.metadata.generateName, 'web-');
    assert.deepEqual(first!.metadata.ownerReferences, [
      { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true },
    ]);
    assert.deepEqual(first!.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.equal(first!.addressType, 'IPv4');
  });

  it('writes nothing when nothing changed, and only the slice holding a changed endpoint', () => {
    const pods = Array.from({ length: 10 }, (_, i) => pod(i));
    const slices = apply([], planSlices(service(), pods, [], { maxPerSlice: 4 }));
    assert.equal(writes(planSlices(service(), pods, slices, { maxPerSlice: 4 })), 0);
    pods[5] = pod(5, { ready: false });
    const plan = planSlices(service(), pods, slices, { maxPerSlice: 4 });
    assert.equal(plan.update.length, 1);
    assert.equal(writes(plan), 1);
    const changed = plan.update[0]!.endpoints!.find((e) => e.targetRef.uid === 'uid-5');
    assert.deepEqual(changed?.conditions, { ready: false, serving: false, terminating: false });
  });

  it('fills slices with room before creating new ones', () => {
    const slices = apply([], planSlices(service(), [pod(1), pod(2), pod(3)], [], { maxPerSlice: 2 }));
    assert.equal(slices.length, 2);
    // p3 goes, p4 and p5 come: the slice that held p3 takes them.
    const plan = planSlices(service(), [pod(1), pod(2), pod(4), pod(5)], slices, { maxPerSlice: 2 });
    assert.deepEqual([plan.create.length, plan.update.length, plan.delete.length], [0, 1, 0]);
    assert.deepEqual(
      plan.update[0]!.endpoints!.map((e) => e.targetRef.uid),
      ['uid-4', 'uid-5'],
    );
  });

  it('recycles a slice for another port group rather than deleting one and creating one', () => {
    const named = service({ ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] });
    const slices = apply([], planSlices(named, [pod(1, { http: 8080 })], []));
    assert.equal(slices.length, 1);
    const plan = planSlices(named, [pod(1, { http: 9000 })], slices);
    assert.deepEqual([plan.create.length, plan.update.length, plan.delete.length], [0, 1, 0]);
    assert.equal(plan.update[0]!.metadata.name, slices[0]!.metadata.name);
    assert.deepEqual(plan.update[0]!.ports, [{ name: 'http', port: 9000, protocol: 'TCP' }]);
  });

  it('keeps one empty placeholder slice when there is no endpoint', () => {
    const plan = planSlices(service(), [], []);
    assert.equal(plan.create.length, 1);
    assert.deepEqual([plan.create[0]!.endpoints, plan.create[0]!.ports], [[], []]);
    const slices = apply([], plan);
    assert.equal(writes(planSlices(service(), [], slices)), 0, 'an existing placeholder is kept as it is');
    const filled = planSlices(service(), [pod(1)], slices);
    assert.deepEqual([filled.create.length, filled.update.length, filled.delete.length], [0, 1, 0], 'the placeholder is filled in');
    const emptied = planSlices(service(), [], apply(slices, filled));
    assert.deepEqual([emptied.create.length, emptied.update.length, emptied.delete.length], [0, 1, 0], 'and emptied again in place');
  });

  it('deletes slices of another owner or of an address type the service no longer has, and plans both families when dual-stack', () => {
    const dual = service({ ipFamilies: ['IPv4', 'IPv6'] });
    const pods = [pod(1, { ips: ['10.0.0.1', 'fd00::1'] }), pod(2, { ips: ['10.0.0.2'] })];
    const slices = apply([], planSlices(dual, pods, []));
    assert.deepEqual(slices.map((s) => [s.addressType, s.endpoints!.length]).sort(), [
      ['IPv4', 2],
      ['IPv6', 1],
    ]);
    const single = planSlices(service(), pods, slices);
    assert.deepEqual(
      single.delete.map((s) => s.addressType),
      ['IPv6'],
    );
    const recreated = { ...service(), metadata: { ...service().metadata, uid: 'new-uid' } };
    const plan = planSlices(
      recreated,
      pods,
      slices.filter((s) => s.addressType === 'IPv4'),
    );
    assert.equal(plan.delete.length, 1);
    assert.equal(plan.create.length, 1);
  });

  it('sets zone, hostname and terminating conditions', () => {
    const terminating = pod(1);
    terminating.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
    const named = pod(2);
    named.spec!.hostname = 'two';
    named.spec!.subdomain = 'web';
    const plan = planSlices(service(), [terminating, named], [], { zoneOf: (node) => (node === 'node-1' ? 'zone-a' : undefined) });
    const [a, b] = plan.create[0]!.endpoints!;
    assert.deepEqual(a, {
      addresses: ['10.0.0.1'],
      conditions: { ready: false, serving: true, terminating: true },
      targetRef: { kind: 'Pod', namespace: 'default', name: 'p1', uid: 'uid-1' },
      nodeName: 'node-1',
      zone: 'zone-a',
    });
    assert.equal(b!.hostname, 'two');
  });

  it('plans 10,000 pods into 100 slices, and one changed pod into one update, quickly', () => {
    const pods = Array.from({ length: 10_000 }, (_, i) => pod(i));
    let started = performance.now();
    const slices = apply([], planSlices(service(), pods, []));
    const first = performance.now() - started;
    assert.equal(slices.length, 100);
    assert.equal(count(slices), 10_000);
    pods[1234] = pod(1234, { ready: false });
    started = performance.now();
    const plan = planSlices(service(), pods, slices);
    const second = performance.now() - started;
    assert.equal(writes(plan), 1);
    // Figures, not a pass/fail on time.
    console.log(`planSlices: 10,000 pods from scratch ${first.toFixed(1)} ms, re-plan ${second.toFixed(1)} ms`);
  });
});

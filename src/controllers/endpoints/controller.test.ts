// The endpoints controller against a real in-process API server. There is no agent: the tests
// play its part by writing pod status (podIP, Ready) through the API.
import type { EndpointSlice } from '../../api/services.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { metaTime, type KubeObject } from '../../api/meta.js';
import { isNotFound, resources, type ApiClient } from '../../client/index.js';
import { startControllerTest, type ControllerTestBed } from '../../../test/support/controllers/controller-test.js';
import { endpointsControllerFactory, MANAGED_BY, MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from './index.js';
import type { EndpointSubset } from './subsets.js';
import { waitFor } from '../../../test/support/wait-for.js';

const MAX_PER_SLICE = 3;

interface PodOptions {
  labels?: Record<string, string>;
  ip?: string;
  ready?: boolean;
  phase?: string;
  node?: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  namespace?: string;
}

describe('endpoints controller', () => {
  let bed: ControllerTestBed;
  let api: ApiClient;
  const pods = (ns = 'default') => api.resource(resources.pods, ns);
  const services = (ns = 'default') => api.resource(resources.services, ns);
  const endpoints = (ns = 'default') => api.resource(resources.endpoints, ns);
  const slices = (ns = 'default') => api.resource<EndpointSlice>(resources.endpointslices, ns);

  before(async () => {
    bed = await startControllerTest(endpointsControllerFactory({ maxEndpointsPerSlice: MAX_PER_SLICE }));
    api = bed.api;
  });
  after(() => bed.close());

  /** Creates a pod bound to a node and, when given an IP, reports it Running as an agent would. */
  async function makePod(name: string, options: PodOptions = {}): Promise<KubeObject> {
    const ns = options.namespace ?? 'default';
    const container: Record<string, unknown> = { name: 'main', image: 'drover-test/busybox:1' };
    if (options.ports) container['ports'] = options.ports;
    const pod = await pods(ns).create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, labels: options.labels ?? { app: 'web' } },
      spec: { nodeName: options.node ?? 'node-1', containers: [container] },
    });
    if (options.ip !== undefined) await setStatus(name, options, ns);
    return pod;
  }

  async function setStatus(name: string, options: PodOptions, ns = 'default'): Promise<void> {
    const ready = options.ready ?? true;
    const at = metaTime();
    await pods(ns).patch(
      name,
      'merge',
      {
        status: {
          phase: options.phase ?? 'Running',
          podIP: options.ip,
          podIPs: [{ ip: options.ip }],
          conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at }],
        },
      },
      { subresource: 'status' },
    );
  }

  async function makeService(name: string, spec: Record<string, unknown>, ns = 'default', labels?: Record<string, string>): Promise<KubeObject> {
    const metadata: KubeObject['metadata'] = { name, namespace: ns };
    if (labels) metadata.labels = labels;
    return services(ns).create({ apiVersion: 'v1', kind: 'Service', metadata, spec });
  }

  async function subsetsOf(name: string, ns = 'default'): Promise<EndpointSubset[] | undefined> {
    try {
      return ((await endpoints(ns).get(name))['subsets'] as EndpointSubset[] | undefined) ?? [];
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async function slicesOf(service: string, ns = 'default'): Promise<EndpointSlice[]> {
    return (await slices(ns).list({ labelSelector: { [SERVICE_NAME_LABEL]: service } })).items;
  }

  const ips = (subset: EndpointSubset | undefined, key: 'addresses' | 'notReadyAddresses') => (subset?.[key] ?? []).map((a) => a.ip).sort();
  const sliceIPs = (list: EndpointSlice[]) => list.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();

  it('lists ready pods as addresses and not-ready ones as notReadyAddresses; slices carry the conditions', async () => {
    const ready = await makePod('split-ready', { labels: { app: 'split' }, ip: '10.1.0.1' });
    await makePod('split-unready', { labels: { app: 'split' }, ip: '10.1.0.2', ready: false });
    await makePod('split-no-ip', { labels: { app: 'split' } });
    await makePod('split-done', { labels: { app: 'split' }, ip: '10.1.0.4', phase: 'Succeeded', ready: false });
    await makePod('split-other', { labels: { app: 'other' }, ip: '10.1.0.5' });
    const svc = await makeService('split', { selector: { app: 'split' }, ports: [{ port: 80, targetPort: 8080 }] }, 'default', { tier: 'front' });

    const subsets = await waitFor('Endpoints with one ready and one not-ready address', async () => {
      const found = await subsetsOf('split');
      return found && found.length === 1 && found[0]?.notReadyAddresses?.length === 1 ? found : undefined;
    });
    assert.deepEqual(subsets, [
      {
        addresses: [{ ip: '10.1.0.1', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'split-ready', uid: ready.metadata.uid } }],
        notReadyAddresses: [
          {
            ip: '10.1.0.2',
            nodeName: 'node-1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'split-unready', uid: (await pods().get('split-unready')).metadata.uid },
          },
        ],
        ports: [{ name: '', port: 8080, protocol: 'TCP' }],
      },
    ]);
    assert.deepEqual((await endpoints().get('split')).metadata.labels, { tier: 'front' });

    const [slice] = await waitFor('one slice with two endpoints', async () => {
      const found = await slicesOf('split');
      return found.length === 1 && found[0]!.endpoints?.length === 2 ? found : undefined;
    });
    assert.ok(slice);
    assert.equal(slice.addressType, 'IPv4');
    assert.match(slice.metadata.name!, /^split-[a-z0-9]{5}$/);
    assert.deepEqual(slice.metadata.labels, { tier: 'front', [SERVICE_NAME_LABEL]: 'split', [MANAGED_BY_LABEL]: MANAGED_BY });
    assert.deepEqual(slice.metadata.ownerReferences, [
      { apiVersion: 'v1', kind: 'Service', name: 'split', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    assert.deepEqual(slice.ports, [{ name: '', port: 8080, protocol: 'TCP' }]);
    const byIP = new Map((slice.endpoints ?? []).map((e) => [e.addresses[0], e]));
    assert.deepEqual(byIP.get('10.1.0.1')?.conditions, { ready: true, serving: true, terminating: false });
    assert.deepEqual(byIP.get('10.1.0.2')?.conditions, { ready: false, serving: false, terminating: false });
    assert.equal(byIP.get('10.1.0.1')?.nodeName, 'node-1');
    assert.equal(byIP.get('10.1.0.1')?.targetRef.name, 'split-ready');

    // A pod becoming ready moves over; the slice's condition follows.
    await setStatus('split-unready', { ip: '10.1.0.2', ready: true });
    const after = await waitFor('both addresses ready', async () => {
      const found = await subsetsOf('split');
      return found?.[0]?.addresses?.length === 2 ? found : undefined;
    });
    assert.equal(after[0]?.notReadyAddresses, undefined);
    await waitFor('both slice endpoints ready', async () => (await slicesOf('split'))[0]?.endpoints?.every((e) => e.conditions.ready));
  });

  it('writes only when the content changes', async () => {
    await makePod('quiet-a', { labels: { app: 'quiet' }, ip: '10.2.0.1' });
    await makeService('quiet', { selector: { app: 'quiet' }, ports: [{ port: 80 }] });
    const ep = await waitFor('quiet endpoints', async () => {
      const current = await endpoints()
        .get('quiet')
        .catch(() => undefined);
      return current && (current['subsets'] as EndpointSubset[] | undefined)?.length === 1 ? current : undefined;
    });
    const [slice] = await waitFor('quiet slice', async () => {
      const found = await slicesOf('quiet');
      return found.length === 1 && found[0]!.endpoints?.length === 1 ? found : undefined;
    });
    // Irrelevant pod and service changes: nothing to write.
    await pods().patch('quiet-a', 'merge', { metadata: { annotations: { touched: 'yes' } } });
    await pods().patch('quiet-a', 'merge', { status: { message: 'still fine' } }, { subresource: 'status' });
    await services().patch('quiet', 'merge', { metadata: { annotations: { touched: 'yes' } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await endpoints().get('quiet')).metadata.resourceVersion, ep.metadata.resourceVersion);
    assert.equal((await slices().get(slice!.metadata.name!)).metadata.resourceVersion, slice!.metadata.resourceVersion);
  });

  it('resolves named target ports per pod, and groups slices by the ports they resolve to', async () => {
    await makePod('named-a', { labels: { app: 'named' }, ip: '10.3.0.1', ports: [{ name: 'http', containerPort: 8080 }] });
    await makePod('named-b', { labels: { app: 'named' }, ip: '10.3.0.2', ports: [{ name: 'http', containerPort: 8080 }] });
    await makePod('named-c', { labels: { app: 'named' }, ip: '10.3.0.3', ports: [{ name: 'http', containerPort: 9000 }] });
    await makePod('named-none', { labels: { app: 'named' }, ip: '10.3.0.4' });
    await makeService('named', {
      selector: { app: 'named' },
      ports: [
        { name: 'web', port: 80, targetPort: 'http' },
        { name: 'metrics', port: 9100, targetPort: 9100, appProtocol: 'http' },
      ],
    });
    const subsets = await waitFor('three subsets', async () => {
      const found = await subsetsOf('named');
      return found && found.length === 3 ? found : undefined;
    });
    const find = (ports: string) => subsets.find((s) => JSON.stringify((s.ports ?? []).map((p) => `${p.name}:${p.port}`).sort()) === ports);
    // Subsets are repacked by the set of addresses that offer each port (endpoints.RepackSubsets).
    assert.deepEqual(ips(find('["web:8080"]'), 'addresses'), ['10.3.0.1', '10.3.0.2']);
    assert.deepEqual(ips(find('["web:9000"]'), 'addresses'), ['10.3.0.3']);
    // A pod without the named port still serves the numeric one.
    assert.deepEqual(ips(find('["metrics:9100"]'), 'addresses'), ['10.3.0.1', '10.3.0.2', '10.3.0.3', '10.3.0.4']);
    assert.deepEqual(find('["metrics:9100"]')?.ports, [{ name: 'metrics', port: 9100, protocol: 'TCP', appProtocol: 'http' }]);

    const list = await waitFor('three slices', async () => {
      const found = await slicesOf('named');
      return found.length === 3 && sliceIPs(found).length === 4 ? found : undefined;
    });
    const ports = list
      .map((s) =>
        (s.ports ?? [])
          .map((p) => `${p.name}:${p.port}`)
          .sort()
          .join(','),
      )
      .sort();
    assert.deepEqual(ports, ['metrics:9100', 'metrics:9100,web:8080', 'metrics:9100,web:9000']);
  });

  it('drops deleted pods: terminating ones leave the Endpoints and stay in slices as terminating', async () => {
    await makePod('gone-a', { labels: { app: 'gone' }, ip: '10.4.0.1' });
    await makePod('gone-b', { labels: { app: 'gone' }, ip: '10.4.0.2' });
    await makeService('gone', { selector: { app: 'gone' }, ports: [{ port: 80 }] });
    await waitFor('two addresses', async () => ips((await subsetsOf('gone'))?.[0], 'addresses').length === 2);

    // A bound pod is deleted gracefully: it terminates until its agent confirms.
    await pods().delete('gone-a', { gracePeriodSeconds: 30 });
    await waitFor('the terminating pod out of the Endpoints', async () => JSON.stringify(ips((await subsetsOf('gone'))?.[0], 'addresses')) === '["10.4.0.2"]');
    const terminating = await waitFor('a terminating endpoint in the slice', async () => {
      const endpoint = (await slicesOf('gone')).flatMap((s) => s.endpoints ?? []).find((e) => e.addresses[0] === '10.4.0.1');
      return endpoint?.conditions.terminating ? endpoint : undefined;
    });
    assert.deepEqual(terminating.conditions, { ready: false, serving: true, terminating: true });

    await pods().delete('gone-a', { gracePeriodSeconds: 0 });
    await waitFor('the pod out of the slices', async () => JSON.stringify(sliceIPs(await slicesOf('gone'))) === '["10.4.0.2"]');
    await pods().delete('gone-b', { gracePeriodSeconds: 0 });
    await waitFor('empty Endpoints', async () => (await subsetsOf('gone'))?.length === 0);
    // No endpoints at all: one empty placeholder slice, as Kubernetes keeps.
    const placeholder = await waitFor('a placeholder slice', async () => {
      const found = await slicesOf('gone');
      return found.length === 1 && (found[0]!.endpoints ?? []).length === 0 ? found[0] : undefined;
    });
    assert.deepEqual(placeholder.ports ?? [], []);
  });

  it('follows selector changes and relabelled pods', async () => {
    await makePod('sel-a', { labels: { app: 'sel-a' }, ip: '10.5.0.1' });
    await makePod('sel-b', { labels: { app: 'sel-b' }, ip: '10.5.0.2' });
    await makeService('sel', { selector: { app: 'sel-a' }, ports: [{ port: 80 }] });
    await waitFor('sel-a selected', async () => JSON.stringify(ips((await subsetsOf('sel'))?.[0], 'addresses')) === '["10.5.0.1"]');
    await services().patch('sel', 'merge', { spec: { selector: { app: 'sel-b' } } });
    await waitFor('sel-b selected', async () => JSON.stringify(ips((await subsetsOf('sel'))?.[0], 'addresses')) === '["10.5.0.2"]');
    await waitFor('the slice follows', async () => JSON.stringify(sliceIPs(await slicesOf('sel'))) === '["10.5.0.2"]');
    await pods().patch('sel-a', 'merge', { metadata: { labels: { app: 'sel-b' } } });
    await waitFor('relabelled pod joins', async () => ips((await subsetsOf('sel'))?.[0], 'addresses').length === 2);
    await pods().patch('sel-b', 'merge', { metadata: { labels: { app: 'elsewhere' } } });
    await waitFor('relabelled pod leaves', async () => JSON.stringify(ips((await subsetsOf('sel'))?.[0], 'addresses')) === '["10.5.0.1"]');
    await waitFor('the slice follows the labels', async () => JSON.stringify(sliceIPs(await slicesOf('sel'))) === '["10.5.0.1"]');
  });

  it('splits slices at the maximum size and packs them again as pods go', async () => {
    for (let i = 1; i <= 7; i++) await makePod(`many-${i}`, { labels: { app: 'many' }, ip: `10.6.0.${i}` });
    await makeService('many', { selector: { app: 'many' }, ports: [{ name: 'http', port: 80 }] });
    const list = await waitFor('seven endpoints in slices', async () => {
      const found = await slicesOf('many');
      return sliceIPs(found).length === 7 ? found : undefined;
    });
    assert.equal(list.length, 3);
    assert.ok(list.every((s) => (s.endpoints ?? []).length <= MAX_PER_SLICE));
    assert.equal(new Set(sliceIPs(list)).size, 7, 'no endpoint twice');
    for (let i = 1; i <= 6; i++) await pods().delete(`many-${i}`, { gracePeriodSeconds: 0 });
    const packed = await waitFor('one slice left', async () => {
      const found = await slicesOf('many');
      return found.length === 1 && sliceIPs(found).length === 1 ? found : undefined;
    });
    assert.deepEqual(sliceIPs(packed), ['10.6.0.7']);
    assert.ok(
      list.some((s) => s.metadata.name === packed[0]!.metadata.name),
      'a surviving slice was kept, not recreated',
    );
  });

  it('publishes not-ready addresses when the service asks, and marks headless services', async () => {
    await makePod('pub-a', { labels: { app: 'pub' }, ip: '10.7.0.1', ready: false });
    await makeService('pub', { selector: { app: 'pub' }, clusterIP: 'None', publishNotReadyAddresses: true, ports: [{ port: 53, protocol: 'UDP' }] });
    await waitFor('a not-ready pod published', async () => JSON.stringify(ips((await subsetsOf('pub'))?.[0], 'addresses')) === '["10.7.0.1"]');
    assert.deepEqual((await endpoints().get('pub')).metadata.labels, { 'service.kubernetes.io/headless': '' });
    const [slice] = await waitFor('pub slice', async () => {
      const found = await slicesOf('pub');
      return found.length === 1 && found[0]!.endpoints?.length === 1 ? found : undefined;
    });
    assert.deepEqual(slice!.endpoints?.[0]?.conditions, { ready: true, serving: false, terminating: false });
    assert.equal(slice!.metadata.labels?.['service.kubernetes.io/headless'], '');
    assert.deepEqual(slice!.ports, [{ name: '', port: 53, protocol: 'UDP' }]);
  });

  it('leaves services without a selector alone, recreates deleted Endpoints, and cleans up after a deleted service', async () => {
    await makeService('manual', { ports: [{ port: 80 }] });
    await endpoints().create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'manual' },
      subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 80 }] }],
    });

    await makePod('tidy-a', { labels: { app: 'tidy' }, ip: '10.8.0.1' });
    await makeService('tidy', { selector: { app: 'tidy' }, ports: [{ port: 80 }] });
    await waitFor('tidy endpoints', async () => ips((await subsetsOf('tidy'))?.[0], 'addresses').length === 1);
    await endpoints().delete('tidy');
    await waitFor('tidy endpoints recreated', async () => ips((await subsetsOf('tidy'))?.[0], 'addresses').length === 1);
    await waitFor('tidy slice', async () => (await slicesOf('tidy')).length === 1);

    await services().delete('tidy');
    await waitFor('tidy endpoints deleted', async () => (await subsetsOf('tidy')) === undefined);
    await waitFor('tidy slices deleted', async () => (await slicesOf('tidy')).length === 0);

    assert.deepEqual(ips((await subsetsOf('manual'))?.[0], 'addresses'), ['192.0.2.10']);
    assert.deepEqual(await slicesOf('manual'), []);
  });

  it('keeps services of other namespaces apart', async () => {
    await api.resource(resources.namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    await makePod('ns-a', { labels: { app: 'ns' }, ip: '10.9.0.1' });
    await makePod('ns-b', { labels: { app: 'ns' }, ip: '10.9.0.2', namespace: 'team-b' });
    await makeService('ns', { selector: { app: 'ns' }, ports: [{ port: 80 }] }, 'team-b');
    await waitFor('only the team-b pod', async () => JSON.stringify(ips((await subsetsOf('ns', 'team-b'))?.[0], 'addresses')) === '["10.9.0.2"]');
    await waitFor('only the team-b pod in slices', async () => JSON.stringify(sliceIPs(await slicesOf('ns', 'team-b'))) === '["10.9.0.2"]');
  });
});

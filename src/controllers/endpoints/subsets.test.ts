import type { Service } from '../../api/services.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPort } from './pods.js';
import { desiredSubsets, truncateSubsets, type EndpointAddress, type EndpointSubset } from './subsets.js';
import type { ContainerPort, Pod, PodPhase } from '../../api/core/index.js';

function pod(
  name: string,
  ip: string | undefined,
  options: { ready?: boolean; phase?: PodPhase; deleting?: boolean; ports?: ContainerPort[]; hostname?: string; subdomain?: string } = {},
): Pod {
  const result: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'main', ports: options.ports ?? [] }] },
    status: { phase: options.phase ?? 'Running', conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }] },
  };
  if (ip) result.status!.podIP = ip;
  if (options.deleting) result.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
  if (options.hostname) result.spec!.hostname = options.hostname;
  if (options.subdomain) result.spec!.subdomain = options.subdomain;
  return result;
}

function service(spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default', uid: 'svc-uid' }, spec: { selector: { app: 'web' }, ...spec } };
}

const ip = (addresses: EndpointAddress[] | undefined) => (addresses ?? []).map((a) => a.ip);

describe('desiredSubsets', () => {
  it('splits ready and not-ready pods and skips pods without an IP, finished or terminating', () => {
    const subsets = desiredSubsets(service({ ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] }), [
      pod('b', '10.0.0.2'),
      pod('a', '10.0.0.1', { ready: false }),
      pod('c', undefined),
      pod('d', '10.0.0.4', { phase: 'Failed' }),
      pod('e', '10.0.0.5', { deleting: true }),
    ]);
    assert.equal(subsets.length, 1);
    assert.deepEqual(ip(subsets[0]!.addresses), ['10.0.0.2']);
    assert.deepEqual(ip(subsets[0]!.notReadyAddresses), ['10.0.0.1']);
    assert.deepEqual(subsets[0]!.ports, [{ name: '', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(subsets[0]!.addresses![0], {
      ip: '10.0.0.2',
      nodeName: 'node-1',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' },
    });
  });

  it('publishes not-ready and terminating pods when the service asks', () => {
    const subsets = desiredSubsets(service({ publishNotReadyAddresses: true, ports: [{ port: 80 }] }), [
      pod('a', '10.0.0.1', { ready: false }),
      pod('e', '10.0.0.5', { deleting: true }),
    ]);
    assert.deepEqual(ip(subsets[0]!.addresses), ['10.0.0.1', '10.0.0.5']);
    assert.equal(subsets[0]!.notReadyAddresses, undefined);
  });

  it('sets the hostname of pods whose subdomain is the service', () => {
    const [subset] = desiredSubsets(service({ clusterIP: 'None', ports: [] }), [
      pod('a', '10.0.0.1', { hostname: 'a', subdomain: 'web' }),
      pod('b', '10.0.0.2', { hostname: 'b', subdomain: 'other' }),
    ]);
    assert.deepEqual(
      subset!.addresses!.map((a) => a.hostname),
      ['a', undefined],
    );
    assert.equal(subset!.ports, undefined, 'a headless service without ports has port-less subsets');
  });

  it('gives a service with ports but no resolvable port no subsets, and a port-less non-headless service none', () => {
    assert.deepEqual(desiredSubsets(service({ ports: [{ port: 80, targetPort: 'http' }] }), [pod('a', '10.0.0.1')]), []);
    assert.deepEqual(desiredSubsets(service({ ports: [] }), [pod('a', '10.0.0.1')]), []);
  });

  it('repacks: ports offered by the same addresses share a subset', () => {
    const withHttp = { ports: [{ name: 'http', containerPort: 8080 }] };
    const subsets = desiredSubsets(
      service({
        ports: [
          { name: 'web', port: 80, targetPort: 'http' },
          { name: 'admin', port: 9000 },
        ],
      }),
      [pod('a', '10.0.0.1', withHttp), pod('b', '10.0.0.2', withHttp)],
    );
    assert.equal(subsets.length, 1);
    assert.deepEqual(
      subsets[0]!.ports!.map((p) => `${p.name}:${p.port}`),
      ['admin:9000', 'web:8080'],
    );
  });

  it("picks the pod IP of the service's first family", () => {
    const dual = pod('a', '10.0.0.1');
    dual.status!.podIPs = [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }];
    assert.deepEqual(ip(desiredSubsets(service({ ipFamilies: ['IPv6'], ports: [{ port: 80 }] }), [dual])[0]!.addresses), ['fd00::1']);
    assert.deepEqual(desiredSubsets(service({ ipFamilies: ['IPv6'], ports: [{ port: 80 }] }), [pod('b', '10.0.0.2')]), []);
  });
});

describe('findPort', () => {
  const p = pod('a', '10.0.0.1', {
    ports: [
      { name: 'dns', containerPort: 53, protocol: 'UDP' },
      { name: 'http', containerPort: 8080 },
    ],
  });
  it('resolves numbers, names with the matching protocol, and defaults to the port', () => {
    assert.equal(findPort(p, { port: 80, targetPort: 9090 }), 9090);
    assert.equal(findPort(p, { port: 80 }), 80);
    assert.equal(findPort(p, { port: 80, targetPort: 'http' }), 8080);
    assert.equal(findPort(p, { port: 53, targetPort: 'dns', protocol: 'UDP' }), 53);
    assert.equal(findPort(p, { port: 53, targetPort: 'dns', protocol: 'TCP' }), undefined);
    assert.equal(findPort(p, { port: 80, targetPort: 'missing' }), undefined);
  });
});

describe('truncateSubsets', () => {
  const addresses = (prefix: string, n: number): EndpointAddress[] =>
    Array.from({ length: n }, (_, i) => ({
      ip: `${prefix}.${i}`,
      targetRef: { kind: 'Pod', namespace: 'default', name: `${prefix}-${i}`, uid: `${prefix}-${i}` },
    }));

  it('leaves small endpoints alone', () => {
    const subsets: EndpointSubset[] = [{ addresses: addresses('10.0.0', 5) }];
    assert.equal(truncateSubsets(subsets, 10), false);
    assert.equal(subsets[0]!.addresses!.length, 5);
  });

  it('cuts not-ready addresses first', () => {
    const subsets: EndpointSubset[] = [{ addresses: addresses('10.0.0', 6), notReadyAddresses: addresses('10.0.1', 6) }];
    assert.equal(truncateSubsets(subsets, 10), true);
    assert.equal(subsets[0]!.addresses!.length, 6);
    assert.equal(subsets[0]!.notReadyAddresses!.length, 4);
  });

  it('shares the ready addresses between subsets when they alone are too many', () => {
    const subsets: EndpointSubset[] = [
      { addresses: addresses('10.0.0', 12), notReadyAddresses: addresses('10.0.2', 3) },
      { addresses: addresses('10.0.1', 8) },
    ];
    assert.equal(truncateSubsets(subsets, 10), true);
    assert.equal(subsets[0]!.addresses!.length + subsets[1]!.addresses!.length, 10);
    assert.equal(subsets[0]!.addresses!.length, 6);
    assert.equal(subsets[0]!.notReadyAddresses, undefined);
  });
});

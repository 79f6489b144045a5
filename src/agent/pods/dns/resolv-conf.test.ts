import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadHostResolvConf } from './host-resolv-conf.js';
import { parseResolvConf, podResolvConf, podResolverConfig, type DnsSettings } from './resolv-conf.js';
import type { Pod } from '../../../api/core/index.js';

const HOST = [
  '# written by the DHCP client',
  'nameserver 192.168.1.1',
  '; another comment',
  'nameserver 192.168.1.2',
  'search corp.example. lab.example',
  'options edns0 ndots:2',
  '',
].join('\n');

const settings: DnsSettings = { clusterDns: ['10.43.0.10'], clusterDomain: 'cluster.local', hostResolvConf: HOST };

function pod(spec: Record<string, unknown> = {}, namespace = 'dev'): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name: 'p' }, spec: { containers: [], ...spec } };
}

describe("the host's resolv.conf", () => {
  it('accumulates nameservers, keeps the last search line without trailing dots or the root, merges options by name', () => {
    const text = 'nameserver 1.1.1.1\nsearch old.example\nnameserver 8.8.8.8 ignored\nsearch a.example. . b.example\noptions ndots:2 rotate\noptions ndots:3\n';
    assert.deepEqual(parseResolvConf(text), { nameservers: ['1.1.1.1', '8.8.8.8'], searches: ['a.example', 'b.example'], options: ['ndots:3', 'rotate'] });
    assert.deepEqual(parseResolvConf(''), { nameservers: [], searches: [], options: [] });
  });

  it("is read from the first file whose nameservers pods can reach (systemd-resolved's upstream list over its stub)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'drover-resolv-'));
    try {
      const stub = join(dir, 'stub');
      const upstream = join(dir, 'upstream');
      await writeFile(stub, 'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch lan\n');
      await writeFile(upstream, 'nameserver 192.168.1.1\nsearch lan\n');
      assert.equal(await loadHostResolvConf([stub, upstream]), 'nameserver 192.168.1.1\nsearch lan\n');
      assert.equal(
        await loadHostResolvConf([stub, join(dir, 'missing')]),
        'nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch lan\n',
        'no better one: the first as it is',
      );
      assert.equal(await loadHostResolvConf([join(dir, 'missing')]), '');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a pod's resolv.conf", () => {
  it("ClusterFirst (also when unset): the cluster DNS only, the cluster's search domains before the host's, ndots:5", () => {
    const expected = 'nameserver 10.43.0.10\nsearch dev.svc.cluster.local svc.cluster.local cluster.local corp.example lab.example\noptions ndots:5\n';
    assert.equal(podResolvConf(pod(), settings), expected);
    assert.equal(podResolvConf(pod({ dnsPolicy: 'ClusterFirst' }), settings), expected);
  });

  it('ClusterFirst lists a host search domain that is also a cluster one once', () => {
    const conf = podResolverConfig(pod(), { ...settings, hostResolvConf: 'nameserver 192.168.1.1\nsearch cluster.local corp.example\n' });
    assert.deepEqual(conf?.searches, ['dev.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example']);
  });

  it("ClusterFirst on the host's network (hostNetwork, process runtime) is Default; ClusterFirstWithHostNet is the cluster's", () => {
    const host = 'nameserver 192.168.1.1\nnameserver 192.168.1.2\nsearch corp.example lab.example\noptions edns0 ndots:2\n';
    assert.equal(podResolvConf(pod({ hostNetwork: true }), settings), host);
    assert.equal(podResolvConf(pod({ runtimeClassName: 'process' }), settings), host);
    assert.match(
      podResolvConf(pod({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }), settings)!,
      /^nameserver 10\.43\.0\.10\nsearch dev\.svc\.cluster\.local /,
    );
  });

  it('ClusterFirstWithHostNet on the pod network is ClusterFirst', () => {
    assert.equal(podResolvConf(pod({ dnsPolicy: 'ClusterFirstWithHostNet' }), settings), podResolvConf(pod(), settings));
  });

  it("ClusterFirst without a cluster DNS falls back to Default; without a domain it searches the host's domains only", () => {
    assert.deepEqual(podResolverConfig(pod(), { ...settings, clusterDns: [] })?.nameservers, ['192.168.1.1', '192.168.1.2']);
    assert.deepEqual(podResolverConfig(pod(), { ...settings, clusterDomain: '' })?.searches, ['corp.example', 'lab.example']);
  });

  it("Default: the host's nameservers, search and options", () => {
    assert.equal(
      podResolvConf(pod({ dnsPolicy: 'Default' }), settings),
      'nameserver 192.168.1.1\nnameserver 192.168.1.2\nsearch corp.example lab.example\noptions edns0 ndots:2\n',
    );
  });

  it("Default without a host resolv.conf leaves the runtime's default, unless dnsConfig says something", () => {
    const noHost = { ...settings, hostResolvConf: '' };
    assert.equal(podResolvConf(pod({ dnsPolicy: 'Default' }), noHost), undefined);
    assert.equal(podResolvConf(pod({ hostNetwork: true }), noHost), undefined);
    assert.equal(podResolvConf(pod({ dnsPolicy: 'Default', dnsConfig: { nameservers: ['9.9.9.9'] } }), noHost), 'nameserver 9.9.9.9\n');
    assert.equal(podResolvConf(pod(), noHost), 'nameserver 10.43.0.10\nsearch dev.svc.cluster.local svc.cluster.local cluster.local\noptions ndots:5\n');
  });

  it('None: only dnsConfig', () => {
    const spec = {
      dnsPolicy: 'None',
      dnsConfig: { nameservers: ['1.1.1.1'], searches: ['a.example'], options: [{ name: 'ndots', value: '1' }, { name: 'edns0' }] },
    };
    assert.equal(podResolvConf(pod(spec), settings), 'nameserver 1.1.1.1\nsearch a.example\noptions ndots:1 edns0\n');
    assert.equal(podResolvConf(pod({ dnsPolicy: 'None' }), settings), '');
  });

  it("merges dnsConfig: nameservers and searches appended once, options by name with dnsConfig's value", () => {
    const dnsConfig = {
      nameservers: ['10.43.0.10', '1.1.1.1'],
      searches: ['svc.cluster.local', 'extra.example'],
      options: [{ name: 'ndots', value: '2' }, { name: 'single-request-reopen' }],
    };
    assert.equal(
      podResolvConf(pod({ dnsConfig }), settings),
      'nameserver 10.43.0.10\nnameserver 1.1.1.1\nsearch dev.svc.cluster.local svc.cluster.local cluster.local corp.example lab.example extra.example\noptions ndots:2 single-request-reopen\n',
    );
    const onDefault = podResolverConfig(pod({ dnsPolicy: 'Default', dnsConfig: { options: [{ name: 'edns0' }, { name: 'ndots', value: '5' }] } }), settings);
    assert.deepEqual(onDefault?.options, ['edns0', 'ndots:5']);
  });

  it('keeps at most 3 nameservers, 32 search domains, none over 253 characters, a search line of 2048 characters', () => {
    const many = podResolverConfig(pod({ dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3'] } }), settings)!;
    assert.deepEqual(many.nameservers, ['10.43.0.10', '1.1.1.1', '2.2.2.2']);

    const searches = Array.from({ length: 40 }, (_, i) => `d${i}.example`);
    const capped = podResolverConfig(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches } }), settings)!;
    assert.deepEqual(capped.searches, searches.slice(0, 32));

    const long = `${'a'.repeat(250)}.example`;
    const dropped = podResolverConfig(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['ok.example', long] } }), settings)!;
    assert.deepEqual(dropped.searches, ['ok.example']);

    const wide = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(195)}.example`); // 205 characters each
    const fitted = podResolverConfig(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: wide } }), settings)!;
    assert.deepEqual(fitted.searches, wide.slice(0, 9), '9 domains and their spaces take 1853 characters, 10 take 2059');
    assert.ok(fitted.searches.join(' ').length <= 2048);
  });
});

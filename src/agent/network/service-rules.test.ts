import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSlice, Service } from '../../api/services.js';
import { buildRules, type RuleInput, type RuleSet, type ServiceEntry } from './service-rules.js';

function service(name: string, spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
}

interface EndpointInput {
  ip: string;
  node?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

function slice(name: string, port: { name?: string; port: number; protocol?: string }, endpoints: EndpointInput[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${name}-abc`, namespace: 'default' },
    addressType: 'IPv4',
    ports: [{ name: port.name ?? '', port: port.port, protocol: port.protocol ?? 'TCP' }],
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready ?? true, serving: e.serving ?? e.ready ?? true, terminating: e.terminating ?? false },
      targetRef: { kind: 'Pod', namespace: 'default', name: e.ip, uid: e.ip },
      ...(e.node ? { nodeName: e.node } : {}),
    })),
  };
}

const lines = (set: RuleSet): string[] => [...set.chains.values()].flat();

/** The rules of node a (127.0.0.1, bridge drv-1, services in 10.43.0.0/16) for `services`. */
function ruleSet(services: ServiceEntry[], extra: Partial<RuleInput> = {}): RuleSet {
  return buildRules({ key: 'abcd1234', nodeName: 'a', nodeAddress: '127.0.0.1', bridge: 'drv-1', serviceCidr: '10.43.0.0/16', services, ...extra });
}

function rules(services: ServiceEntry[], extra: Partial<RuleInput> = {}): string[] {
  return lines(ruleSet(services, extra));
}

const dnats = (lines: string[]): string[] => lines.filter((l) => l.includes('DNAT')).map((l) => l.replace(/.*--to-destination /, ''));

describe('service rules', () => {
  const web = service('web', { clusterIP: '10.43.0.20', ports: [{ port: 80, targetPort: 8080 }] });
  const webSlice = slice('web', { port: 8080 }, [
    { ip: '10.42.1.2', node: 'a' },
    { ip: '10.42.2.2', node: 'b' },
    { ip: '10.42.1.3', node: 'a', ready: false },
  ]);

  it('sends a cluster IP to the ready endpoints only, spread at random, and routes the cluster IP', () => {
    const set = ruleSet([{ service: web, slices: [webSlice] }]);
    const all = lines(set);
    assert.deepEqual(dnats(all), ['10.42.1.2:8080', '10.42.2.2:8080']);
    assert.ok(all.some((l) => l.startsWith('-A DRV-abcd1234-SVC -d 10.43.0.20/32 -p tcp -m tcp --dport 80')));
    assert.ok(
      all.some((l) => l.includes('--probability 0.5000000000')),
      'the first of two endpoints takes half',
    );
    assert.deepEqual(set.routedIPs, ['10.43.0.20']);
    // Every chain a rule jumps to is in the set, and every rule sits in its own chain's list.
    for (const target of all.map((l) => / -j (DRV-\S+)/.exec(l)?.[1]).filter((t) => t !== undefined)) assert.ok(set.chains.has(target), target);
    for (const [chain, rulesOf] of set.chains) for (const rule of rulesOf) assert.ok(rule.startsWith(`-A ${chain} `), rule);
  });

  it('writes nothing for a Service without ready endpoints: its address is left to the unreachable route', () => {
    const set = ruleSet([{ service: web, slices: [slice('web', { port: 8080 }, [{ ip: '10.42.1.3', ready: false }])] }]);
    assert.equal(dnats(lines(set)).length, 0);
    assert.equal(
      set.chains.get('DRV-abcd1234-SVC')!.at(-1),
      '-A DRV-abcd1234-SVC -d 10.43.0.0/16 -j ACCEPT',
      'the range ends the nat table for service addresses',
    );
  });

  it('falls back to serving terminating endpoints when none is ready', () => {
    const lines = rules([{ service: web, slices: [slice('web', { port: 8080 }, [{ ip: '10.42.1.9', ready: false, serving: true, terminating: true }])] }]);
    assert.deepEqual(dnats(lines), ['10.42.1.9:8080']);
  });

  it('keeps traffic on the node under internalTrafficPolicy Local, and NodePorts under externalTrafficPolicy Local', () => {
    const local = service('web', { clusterIP: '10.43.0.20', internalTrafficPolicy: 'Local', ports: [{ port: 80 }] });
    const lines = rules([{ service: local, slices: [webSlice] }]);
    assert.deepEqual(dnats(lines), ['10.42.1.2:8080']);
    const external = service('web', { clusterIP: '10.43.0.20', type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ port: 80, nodePort: 30080 }] });
    const both = rules([{ service: external, slices: [webSlice] }]);
    const nodePortChain = both.find((l) => l.includes('--dport 30080'))!.split(' -j ')[1]!;
    const clusterChain = both.find((l) => l.includes('--dport 80 '))!.split(' -j ')[1]!;
    assert.notEqual(nodePortChain, clusterChain);
    const dnatsIn = (chain: string) => both.filter((l) => l.startsWith(`-A ${chain} `) && l.includes('DNAT')).length;
    assert.equal(dnatsIn(nodePortChain), 1, 'one local endpoint behind the node port');
    assert.equal(dnatsIn(clusterChain), 2, 'both endpoints behind the cluster IP');
  });

  it('answers NodePorts on the node address', () => {
    const nodePort = service('web', { clusterIP: '10.43.0.20', type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
    const lines = rules([{ service: nodePort, slices: [webSlice] }], { nodeAddress: '127.0.0.2' });
    assert.ok(lines.some((l) => l.startsWith('-A DRV-abcd1234-SVC -d 127.0.0.2/32 -p tcp -m tcp --dport 30080')));
  });

  it('remembers clients with sessionAffinity ClientIP', () => {
    const sticky = service('web', {
      clusterIP: '10.43.0.20',
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
      ports: [{ port: 80 }],
    });
    const all = rules([{ service: sticky, slices: [webSlice] }]);
    assert.equal(all.filter((l) => l.includes('--rcheck --seconds 60 --reap') && l.includes('DNAT')).length, 2);
    // The client is remembered only by the endpoint the spread chose: `recent --set` after `statistic`.
    const spread = all.find((l) => l.includes('--probability'))!;
    assert.ok(spread.indexOf('statistic') < spread.indexOf('--set'), spread);
  });

  it('matches slice ports by name and protocol', () => {
    const dns = service('dns', {
      clusterIP: '10.43.0.30',
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      ],
    });
    const udp = slice('dns', { name: 'dns', port: 5353, protocol: 'UDP' }, [{ ip: '10.42.1.5' }]);
    const tcp = slice('dns', { name: 'dns-tcp', port: 5354, protocol: 'TCP' }, [{ ip: '10.42.1.5' }]);
    const lines = rules([{ service: dns, slices: [udp, tcp] }]);
    assert.ok(lines.some((l) => l.includes('-p udp -m udp -j DNAT --to-destination 10.42.1.5:5353')));
    assert.ok(lines.some((l) => l.includes('-p tcp -m tcp -j DNAT --to-destination 10.42.1.5:5354')));
  });

  it('skips headless and ExternalName Services, and sends the cluster DNS address to the node DNS', () => {
    const headless = service('h', { clusterIP: 'None', ports: [{ port: 80 }] });
    const external = service('x', { type: 'ExternalName', externalName: 'example.com' });
    const set = ruleSet(
      [
        { service: headless, slices: [webSlice] },
        { service: external, slices: [] },
      ],
      { dns: { serviceIP: '10.43.0.10', listen: '10.42.0.1:40000' } },
    );
    assert.deepEqual(dnats(lines(set)), ['10.42.0.1:40000', '10.42.0.1:40000']);
    assert.deepEqual(set.routedIPs, ['10.43.0.10']);
  });

  it('masquerades hairpin traffic and the node loopback, and is the same whatever order the slices come in', () => {
    const lines = rules([{ service: web, slices: [webSlice] }]);
    assert.ok(lines.includes('-A DRV-abcd1234-POST -s 127.0.0.0/8 -o drv-1 -j MASQUERADE'));
    assert.ok(
      lines.some((l) => l.includes('-s 10.42.1.2/32 -j MARK --or-mark 0x8000')),
      'an endpoint calling its own Service is masqueraded',
    );
    const reversed = { ...webSlice, endpoints: [...(webSlice.endpoints ?? [])].reverse() };
    assert.deepEqual(rules([{ service: web, slices: [reversed] }]), lines);
  });
});

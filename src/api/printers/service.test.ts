import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointsPrinter, servicePrinter } from './service.js';
import { cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

function service(spec: Record<string, unknown>, status: Record<string, unknown> = {}) {
  return object('v1', 'Service', { name: 'web', namespace: 'default' }, { spec, status });
}

function endpoints(subsets: unknown[] | undefined) {
  return object('v1', 'Endpoints', { name: 'web', namespace: 'default' }, subsets === undefined ? {} : { subsets });
}

describe('service printer', () => {
  it('has the kubectl columns', () => {
    assert.deepEqual(columnNames(servicePrinter), {
      normal: ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age'],
      wide: ['Selector'],
    });
  });

  it('prints a ClusterIP service', () => {
    const svc = service({
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      selector: { tier: 'fe', app: 'web' },
      ports: [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 },
        { name: 'dns', port: 53, protocol: 'UDP' },
      ],
    });
    assert.deepEqual(cells(servicePrinter, svc), {
      Name: 'web',
      Type: 'ClusterIP',
      'Cluster-IP': '10.96.0.10',
      'External-IP': '<none>',
      'Port(s)': '80/TCP,53/UDP',
      Age: '10m',
      Selector: 'app=web,tier=fe',
    });
  });

  it('prints node ports, external IPs, headless and selector-less services', () => {
    const nodePort = service({
      type: 'NodePort',
      clusterIPs: ['10.96.1.1'],
      externalIPs: ['192.0.2.7'],
      ports: [{ port: 443, nodePort: 30443, protocol: 'TCP' }],
    });
    assert.equal(cells(servicePrinter, nodePort)['Port(s)'], '443:30443/TCP');
    assert.equal(cells(servicePrinter, nodePort)['External-IP'], '192.0.2.7');
    const headless = service({ type: 'ClusterIP', clusterIP: 'None', ports: [] });
    assert.deepEqual(
      [cells(servicePrinter, headless)['Cluster-IP'], cells(servicePrinter, headless)['Port(s)'], cells(servicePrinter, headless)['Selector']],
      ['None', '<none>', '<none>'],
    );
  });

  it('prints <none> when no cluster IP is allocated yet', () => {
    assert.equal(cells(servicePrinter, service({ type: 'ClusterIP' }))['Cluster-IP'], '<none>');
  });

  it('prints load balancer ingress addresses, or <pending>', () => {
    const pending = service({ type: 'LoadBalancer', clusterIPs: ['10.96.2.2'], ports: [{ port: 80, nodePort: 31000, protocol: 'TCP' }] });
    assert.equal(cells(servicePrinter, pending)['External-IP'], '<pending>');
    const ready = service(
      { type: 'LoadBalancer', clusterIPs: ['10.96.2.2'], externalIPs: ['192.0.2.9'] },
      { loadBalancer: { ingress: [{ ip: '203.0.113.5' }, { hostname: 'lb.example.com' }, { ip: '203.0.113.5' }] } },
    );
    assert.equal(cells(servicePrinter, ready)['External-IP'], '203.0.113.5,lb.example.com,192.0.2.9');
  });

  it('prints the external name of an ExternalName service', () => {
    const external = service({ type: 'ExternalName', externalName: 'db.example.com' });
    assert.deepEqual([cells(servicePrinter, external)['Cluster-IP'], cells(servicePrinter, external)['External-IP']], ['<none>', 'db.example.com']);
  });
});

describe('endpoints printer', () => {
  it('has NAME ENDPOINTS AGE', () => {
    assert.deepEqual(columnNames(endpointsPrinter), { normal: ['Name', 'Endpoints', 'Age'], wide: [] });
  });

  it('prints ip:port pairs', () => {
    const ep = endpoints([{ addresses: [{ ip: '10.244.0.5' }, { ip: '10.244.1.7' }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }]);
    assert.deepEqual(cells(endpointsPrinter, ep), { Name: 'web', Endpoints: '10.244.0.5:8080,10.244.1.7:8080', Age: '10m' });
  });

  it('shows three and counts the rest', () => {
    const ep = endpoints([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] },
      { addresses: [{ ip: '10.0.1.1' }], notReadyAddresses: [{ ip: '10.0.1.2' }], ports: [{ port: 80 }] },
    ]);
    assert.equal(cells(endpointsPrinter, ep)['Endpoints'], '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...');
  });

  it('prints bare IPs for port-less subsets, brackets IPv6, and <none> without subsets', () => {
    assert.equal(cells(endpointsPrinter, endpoints([{ addresses: [{ ip: '10.0.0.1' }] }]))['Endpoints'], '10.0.0.1');
    assert.equal(cells(endpointsPrinter, endpoints([{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 80 }] }]))['Endpoints'], '[fd00::1]:80');
    assert.equal(cells(endpointsPrinter, endpoints(undefined))['Endpoints'], '<none>');
    assert.equal(cells(endpointsPrinter, endpoints([]))['Endpoints'], '<none>');
    // Only not-ready addresses: Kubernetes prints an empty cell.
    assert.equal(cells(endpointsPrinter, endpoints([{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }]))['Endpoints'], '');
  });
});

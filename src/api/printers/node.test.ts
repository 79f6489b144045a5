import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodePrinter } from './node.js';
import { ago, cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

function node(labels: Record<string, string>, status: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return object('v1', 'Node', { name: 'node-a', labels, creationTimestamp: ago('3d') }, { spec, status });
}

const info = {
  kubeletVersion: 'v1.32.0-drover',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  kernelVersion: '6.1.0-18-amd64',
  containerRuntimeVersion: 'docker://24.0.7',
};

describe('node printer', () => {
  it('has the kubectl columns', () => {
    assert.deepEqual(columnNames(nodePrinter), {
      normal: ['Name', 'Status', 'Roles', 'Age', 'Version'],
      wide: ['Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'],
    });
  });

  it('prints a ready node', () => {
    const n = node(
      { 'kubernetes.io/hostname': 'node-a', 'node-role.kubernetes.io/control-plane': '' },
      {
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
        addresses: [
          { type: 'Hostname', address: 'node-a' },
          { type: 'InternalIP', address: '127.0.0.1' },
        ],
        nodeInfo: info,
      },
    );
    assert.deepEqual(cells(nodePrinter, n), {
      Name: 'node-a',
      Status: 'Ready',
      Roles: 'control-plane',
      Age: '3d',
      Version: 'v1.32.0-drover',
      'Internal-IP': '127.0.0.1',
      'External-IP': '<none>',
      'OS-Image': 'Debian GNU/Linux 12 (bookworm)',
      'Kernel-Version': '6.1.0-18-amd64',
      'Container-Runtime': 'docker://24.0.7',
    });
  });

  it('prints NotReady for a False or Unknown Ready condition, Unknown without one', () => {
    assert.equal(cells(nodePrinter, node({}, { conditions: [{ type: 'Ready', status: 'False' }] }))['Status'], 'NotReady');
    assert.equal(cells(nodePrinter, node({}, { conditions: [{ type: 'Ready', status: 'Unknown' }] }))['Status'], 'NotReady');
    assert.equal(cells(nodePrinter, node({}, { conditions: [{ type: 'DiskPressure', status: 'False' }] }))['Status'], 'Unknown');
    assert.equal(cells(nodePrinter, node({}, {}))['Status'], 'Unknown');
  });

  it('adds SchedulingDisabled to cordoned nodes', () => {
    const cordoned = node({}, { conditions: [{ type: 'Ready', status: 'True' }] }, { unschedulable: true });
    assert.equal(cells(nodePrinter, cordoned)['Status'], 'Ready,SchedulingDisabled');
    assert.equal(cells(nodePrinter, node({}, {}, { unschedulable: true }))['Status'], 'Unknown,SchedulingDisabled');
  });

  it('collects sorted roles from both label styles', () => {
    const labels = {
      'node-role.kubernetes.io/worker': '',
      'node-role.kubernetes.io/gpu': 'true',
      'node-role.kubernetes.io/': 'ignored',
      'kubernetes.io/role': 'edge',
    };
    assert.equal(cells(nodePrinter, node(labels, {}))['Roles'], 'edge,gpu,worker');
    assert.equal(cells(nodePrinter, node({ 'kubernetes.io/role': '' }, {}))['Roles'], '<none>');
  });

  it('prints <unknown> for missing node info and the external address when present', () => {
    const n = node({}, { addresses: [{ type: 'ExternalIP', address: '198.51.100.4' }] });
    const r = cells(nodePrinter, n);
    assert.deepEqual(
      [r['Version'], r['Internal-IP'], r['External-IP'], r['OS-Image'], r['Container-Runtime']],
      ['', '<none>', '198.51.100.4', '<unknown>', '<unknown>'],
    );
  });
});

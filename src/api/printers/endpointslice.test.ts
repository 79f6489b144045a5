import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpointSlicePrinter } from './endpointslice.js';
import { cells, columnNames, object } from '../../../test/support/api/printer-fixtures.js';

function slice(fields: Record<string, unknown>) {
  return object('discovery.k8s.io/v1', 'EndpointSlice', { name: 'web-abcde', namespace: 'default' }, { addressType: 'IPv4', ...fields });
}

describe('endpointslice printer', () => {
  it('has NAME ADDRESSTYPE PORTS ENDPOINTS AGE', () => {
    assert.deepEqual(columnNames(endpointSlicePrinter), { normal: ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'], wide: [] });
  });

  it('prints ports and every address, ready or not', () => {
    const s = slice({
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      endpoints: [
        { addresses: ['10.0.0.1'], conditions: { ready: true } },
        { addresses: ['10.0.0.2'], conditions: { ready: false } },
      ],
    });
    assert.deepEqual(cells(endpointSlicePrinter, s), { Name: 'web-abcde', AddressType: 'IPv4', Ports: '8080', Endpoints: '10.0.0.1,10.0.0.2', Age: '10m' });
  });

  it('shows three and counts the rest', () => {
    const s = slice({
      ports: [{ port: 1 }, { port: 2 }, { port: 3 }, { port: 4 }, { port: 5 }],
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }, { addresses: ['10.0.0.4'] }],
    });
    assert.equal(cells(endpointSlicePrinter, s)['Ports'], '1,2,3 + 2 more...');
    assert.equal(cells(endpointSlicePrinter, s)['Endpoints'], '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...');
  });

  it("prints a port's name (or *) without a number, and <unset> for empty lists", () => {
    assert.equal(cells(endpointSlicePrinter, slice({ ports: [{ name: 'dns', protocol: 'UDP' }, { protocol: 'TCP' }] }))['Ports'], 'dns,*');
    assert.deepEqual(
      [cells(endpointSlicePrinter, slice({}))['Ports'], cells(endpointSlicePrinter, slice({ endpoints: null }))['Endpoints']],
      ['<unset>', '<unset>'],
    );
  });
});

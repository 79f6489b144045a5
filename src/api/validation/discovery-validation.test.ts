import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchema, validateObject } from './index.js';
import { findByKind } from '../registry.js';
import type { KubeObject } from '../meta.js';

const definition = findByKind('discovery.k8s.io', 'v1', 'EndpointSlice')!;

function slice(fields: Record<string, unknown>): KubeObject {
  return { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abcde', namespace: 'default' }, ...fields };
}

/** Schema check, defaults and validation, as the server runs them; "field: message" lines. */
function check(object: KubeObject, old?: KubeObject): string[] {
  const schema = checkSchema(definition.schema, object, { unknownFields: 'report' }).errors;
  definition.applyDefaults(object);
  return [...schema, ...validateObject(definition, object, old)].map((e) => `${e.field}: ${e.message}`);
}

describe('EndpointSlice validation', () => {
  it('accepts what the controller writes, and defaults port names and protocols', () => {
    const ok = slice({
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: ['10.0.0.1'],
          conditions: { ready: true, serving: true, terminating: false },
          nodeName: 'node-1',
          zone: 'a',
          targetRef: { kind: 'Pod', name: 'p', namespace: 'default', uid: 'u' },
        },
      ],
      ports: [{ port: 80 }],
    });
    assert.deepEqual(check(ok), []);
    assert.deepEqual(ok['ports'], [{ name: '', port: 80, protocol: 'TCP' }]);
    assert.deepEqual(check(slice({ addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1'] }] })), []);
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] })), []);
    assert.deepEqual(check(slice({ addressType: 'IPv4' })), [], 'no endpoints and no ports: a placeholder');
  });

  it('requires a supported addressType', () => {
    assert.deepEqual(check(slice({ endpoints: [] })), ['addressType: Required value']);
    assert.deepEqual(check(slice({ addressType: 'IP' })), ['addressType: Unsupported value: "IP": supported values: "IPv4", "IPv6", "FQDN"']);
  });

  it('checks addresses against the address type, with field paths', () => {
    assert.deepEqual(
      check(
        slice({
          addressType: 'IPv4',
          endpoints: [{ addresses: ['fd00::1', '0.0.0.0', '169.254.1.1'] }, { addresses: [] }, { addresses: ['10.0.0.1'], hostname: 'Bad_Name' }],
        }),
      ),
      [
        'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
        'endpoints[0].addresses[1]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
        'endpoints[0].addresses[2]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
        'endpoints[1].addresses: Required value: must contain at least 1 address',
        "endpoints[2].hostname: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    );
    assert.deepEqual(check(slice({ addressType: 'IPv6', endpoints: [{ addresses: ['fe80::1', 'ff02::1', '::', '10.0.0.1'] }] })), [
      'endpoints[0].addresses[0]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'endpoints[0].addresses[1]: Invalid value: "ff02::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      'endpoints[0].addresses[2]: Invalid value: "::": may not be unspecified (::)',
      'endpoints[0].addresses[3]: Invalid value: "10.0.0.1": must be a valid IPv6 address',
    ]);
    assert.deepEqual(check(slice({ addressType: 'FQDN', endpoints: [{ addresses: ['localhost'] }] })), [
      'endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    ]);
    // Loopback pod IPs exist in Drover (process runtime, host network on a loopback-only node).
    assert.deepEqual(check(slice({ addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.1'] }] })), []);
  });

  it('limits endpoints and addresses', () => {
    const many = Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] }));
    assert.deepEqual(check(slice({ addressType: 'IPv4', endpoints: many })), ['endpoints: Too many: 1001: must have at most 1000 items']);
    const addresses = Array.from({ length: 101 }, (_, i) => `10.0.${Math.floor(i / 256)}.${i % 256 || 1}`);
    assert.deepEqual(check(slice({ addressType: 'IPv4', endpoints: [{ addresses }] })), ['endpoints[0].addresses: Too many: 101: must have at most 100 items']);
  });

  it('checks port names, protocols and app protocols', () => {
    assert.deepEqual(
      check(
        slice({
          addressType: 'IPv4',
          ports: [{ port: 80 }, { port: 81 }, { name: 'HTTP', port: 82, protocol: 'ICMP' }, { name: 'web', appProtocol: 'a/b/c' }],
        }),
      ),
      [
        'ports[2].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
        'ports[1].name: Duplicate value: ""',
        "ports[2].name: Invalid value: \"HTTP\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        "ports[3].appProtocol: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    );
  });

  it('keeps addressType immutable', () => {
    const old = slice({ addressType: 'IPv4', endpoints: [] });
    assert.deepEqual(check(slice({ addressType: 'IPv6', endpoints: [] }), old), ['addressType: Invalid value: "IPv6": field is immutable']);
  });
});

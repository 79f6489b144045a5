import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeNode, makePod, snapshotOf, verdictOf } from '../../../test/support/scheduler/builders.js';
import { nodePorts } from './node-ports.js';

const REASON = "node(s) didn't have free ports for the requested pod ports";

function withPort(name: string, port: { hostPort: number; protocol?: string; hostIP?: string }, nodeName?: string) {
  return makePod({ name, ...(nodeName ? { nodeName } : {}), containers: [{ ports: [{ containerPort: 80, ...port }] }] });
}

describe('NodePorts', () => {
  const snapshot = snapshotOf(
    [makeNode({ name: 'n' })],
    [withPort('a', { hostPort: 8080 }, 'n'), withPort('b', { hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }, 'n')],
  );

  it('rejects the same port and protocol on any address', () => {
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 8080 }), 'n', snapshot), REASON);
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 8080, hostIP: '127.0.0.1' }), 'n', snapshot), REASON, '0.0.0.0 holds every address');
  });

  it('admits another protocol, port or address', () => {
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 8080, protocol: 'UDP' }), 'n', snapshot), 'ok');
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 8081 }), 'n', snapshot), 'ok');
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.2' }), 'n', snapshot), 'ok');
  });

  it('a wildcard request collides with a port held on one address', () => {
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 53, protocol: 'UDP' }), 'n', snapshot), REASON);
    assert.equal(verdictOf(nodePorts(), withPort('p', { hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }), 'n', snapshot), REASON);
  });

  it('a pod without host ports skips the check', () => {
    assert.equal(verdictOf(nodePorts(), makePod({ name: 'p', containers: [{ ports: [{ containerPort: 8080 }] }] }), 'n', snapshot), 'ok');
  });
});

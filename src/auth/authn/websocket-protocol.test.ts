import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { Unauthenticated } from './authenticator.js';
import { BEARER_PROTOCOL_PREFIX, takeWebSocketBearerToken } from './websocket-protocol.js';

function upgrade(protocols: string | undefined, upgradeTo = 'websocket'): IncomingMessage {
  const headers: Record<string, string> = { upgrade: upgradeTo, connection: 'Upgrade' };
  const rawHeaders = ['Upgrade', upgradeTo, 'Connection', 'Upgrade'];
  if (protocols !== undefined) ((headers['sec-websocket-protocol'] = protocols), rawHeaders.push('Sec-WebSocket-Protocol', protocols));
  return { headers, rawHeaders } as unknown as IncomingMessage;
}

const encoded = (token: string) => `${BEARER_PROTOCOL_PREFIX}${Buffer.from(token).toString('base64url')}`;

describe('the bearer token in a WebSocket sub-protocol', () => {
  it('is taken, and its entry removed from the parsed and the raw headers (an agent never sees it)', () => {
    const req = upgrade(`${encoded('s3cret/token+with=odd')}, v5.channel.k8s.io, v4.channel.k8s.io`);
    assert.equal(takeWebSocketBearerToken(req), 's3cret/token+with=odd');
    assert.equal(req.headers['sec-websocket-protocol'], 'v5.channel.k8s.io, v4.channel.k8s.io');
    assert.deepEqual(req.rawHeaders, ['Upgrade', 'websocket', 'Connection', 'Upgrade', 'Sec-WebSocket-Protocol', 'v5.channel.k8s.io, v4.channel.k8s.io']);
  });

  it('is not looked for outside WebSocket upgrades, nor where none is offered', () => {
    assert.equal(takeWebSocketBearerToken(upgrade(`${encoded('t')}, v5.channel.k8s.io`, 'SPDY/3.1')), undefined);
    assert.equal(takeWebSocketBearerToken(upgrade('v5.channel.k8s.io')), undefined);
    assert.equal(takeWebSocketBearerToken(upgrade(undefined)), undefined);
  });

  it('is refused as Kubernetes refuses it: two tokens, bad base64url, an empty one, or no other sub-protocol', () => {
    assert.throws(() => takeWebSocketBearerToken(upgrade(`${encoded('a')}, ${encoded('b')}, v5.channel.k8s.io`)), Unauthenticated);
    assert.throws(() => takeWebSocketBearerToken(upgrade(`${BEARER_PROTOCOL_PREFIX}not*base64, v5.channel.k8s.io`)), Unauthenticated);
    assert.throws(() => takeWebSocketBearerToken(upgrade(`${BEARER_PROTOCOL_PREFIX}, v5.channel.k8s.io`)), Unauthenticated);
    assert.throws(() => takeWebSocketBearerToken(upgrade(encoded('alone'))), /missing additional subprotocol/);
  });
});

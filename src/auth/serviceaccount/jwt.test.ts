import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import { JwtError, keyId, peekClaims, signJwt, verifyJwt } from './jwt.js';

const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const otherEc = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });

function header(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('JWS compact tokens', () => {
  test('ES256: signed and verified, header names the key; the signature is 64 bytes (r||s, not DER)', () => {
    const token = signJwt({ sub: 'me', n: 1 }, ec.privateKey);
    assert.deepEqual(header(token), { alg: 'ES256', kid: keyId(ec.publicKey) });
    assert.equal(Buffer.from(token.split('.')[2]!, 'base64url').length, 64);
    assert.deepEqual(verifyJwt(token, ec.publicKey), { sub: 'me', n: 1 });
    assert.deepEqual(peekClaims(token), { sub: 'me', n: 1 });
  });

  test('RS256 works too', () => {
    const token = signJwt({ sub: 'me' }, rsa.privateKey);
    assert.equal(header(token)['alg'], 'RS256');
    assert.deepEqual(verifyJwt(token, rsa.publicKey), { sub: 'me' });
  });

  test('another key, a changed claim, a changed header, alg none: refused', () => {
    const token = signJwt({ sub: 'me' }, ec.privateKey);
    assert.throws(() => verifyJwt(token, otherEc.publicKey), JwtError);
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'admin' })).toString('base64url');
    assert.throws(() => verifyJwt(`${h}.${forged}.${s}`, ec.publicKey), /invalid signature/);
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    assert.throws(() => verifyJwt(`${none}.${token.split('.')[1]}.`, ec.publicKey), /unexpected algorithm/);
    // An RS256 token checked with an EC key: the key decides the algorithm, not the token.
    assert.throws(() => verifyJwt(signJwt({ sub: 'me' }, rsa.privateKey), ec.publicKey), /unexpected algorithm/);
  });

  test('malformed input is a JwtError, never another exception', () => {
    for (const bad of ['', 'a.b', 'a.b.c', '!!!.???.***', `${Buffer.from('[]').toString('base64url')}.e30.`]) {
      assert.throws(() => verifyJwt(bad, ec.publicKey), JwtError, bad);
    }
    assert.equal(peekClaims('not-a-jwt'), undefined);
  });
});

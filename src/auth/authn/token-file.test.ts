import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTokenFile } from './token-file.js';

describe('static token file', () => {
  it('reads token,user,uid,"groups" lines as kube-apiserver does', () => {
    const users = parseTokenFile('# comment\nt1,alice,u1,"dev,ops"\nt2,bob,u2\nt3,carol,,admins\n');
    assert.deepEqual(users.get('t1'), { username: 'alice', uid: 'u1', groups: ['dev', 'ops'] });
    assert.deepEqual(users.get('t2'), { username: 'bob', uid: 'u2', groups: [] });
    assert.deepEqual(users.get('t3'), { username: 'carol', groups: ['admins'] });
  });

  it('refuses a line without a user, naming the line', () => {
    assert.throws(() => parseTokenFile('t1,alice,u1\nlonely\n', 'tokens.csv'), /tokens\.csv:2:/);
  });
});

// ApiClient.setTls: a renewed certificate is used by the connections opened after it, while the
// pooled ones of the old are let go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testSecurity } from '../../test/support/auth/security.js';
import { nodeSubject } from '../auth/components.js';
import { useTestServer } from '../../test/support/apiserver/use-test-server.js';

describe('ApiClient.setTls', () => {
  const bed = useTestServer();

  it('sends later requests with the new client certificate', async () => {
    const client = bed.server.client();
    const whoAmI = async () =>
      (
        await client.request<{ status: { userInfo: { username: string } } }>('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
        })
      ).status.userInfo.username;
    assert.equal(await whoAmI(), 'drover-admin');
    client.setTls(await (await testSecurity()).security.clientTls(nodeSubject('renewed')));
    assert.equal(await whoAmI(), 'system:node:renewed');
  });
});

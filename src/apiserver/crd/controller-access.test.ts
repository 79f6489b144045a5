// The controllers' identity against a real API server: the named resources it works on, Secrets
// only to read, nothing else of the cluster (RBAC objects, CSRs), and custom resources while
// their CRD is served, through the ClusterRole the server keeps from the established CRDs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONTROLLER_MANAGER_SUBJECT } from '../../auth/components.js';
import { CUSTOM_RESOURCE_CONTROLLERS_ROLE } from '../../auth/rbac/bootstrap-policy.js';
import type { TlsConfig } from '../../client/config.js';
import { TestServer, callJson } from '../../../test/support/apiserver/in-process-server.js';
import { testSecurity } from '../../../test/support/auth/security.js';
import { rawRequest } from '../../../test/support/client/raw-request.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { customResourceRules } from './controller-access.js';

const GROUP = 'access.example.com';
const ROLE_PATH = `/apis/rbac.authorization.k8s.io/v1/clusterroles/${CUSTOM_RESOURCE_CONTROLLERS_ROLE}`;
const GADGETS = `/apis/${GROUP}/v1/namespaces/default/gadgets`;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

describe("the controllers' access", () => {
  let server: TestServer;
  let controllers: TlsConfig;
  before(async () => {
    server = await TestServer.start();
    controllers = await (await testSecurity()).security.clientTls(CONTROLLER_MANAGER_SUBJECT);
  });
  after(() => server.close());

  const asControllers = async (method: string, path: string, body?: unknown) =>
    (await rawRequest(server.url, controllers, method, path, body === undefined ? undefined : JSON.stringify(body))).status;

  it('gives one sorted rule per group of the served custom resources', () => {
    const served = [
      { group: 'b.example.com', plural: 'things' },
      { group: 'a.example.com', plural: 'zebras' },
      { group: 'a.example.com', plural: 'apples' },
      { group: 'a.example.com', plural: 'apples' },
    ];
    assert.deepEqual(customResourceRules(served), [
      { verbs: ['get', 'list', 'watch', 'patch', 'delete'], apiGroups: ['a.example.com'], resources: ['apples', 'zebras'] },
      { verbs: ['get', 'list', 'watch', 'patch', 'delete'], apiGroups: ['b.example.com'], resources: ['things'] },
    ]);
  });

  it('reads Secrets without writing them, and reads nothing it does not work on', async () => {
    assert.equal(await asControllers('GET', '/api/v1/namespaces/default/secrets'), 200);
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mine' }, data: {} };
    assert.equal(await asControllers('POST', '/api/v1/namespaces/default/secrets', secret), 403);
    assert.equal(await asControllers('DELETE', '/api/v1/namespaces/default/secrets/any'), 403);
    assert.equal(await asControllers('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles'), 403);
    assert.equal(await asControllers('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests'), 403);
    assert.equal(await asControllers('GET', '/api/v1/namespaces/default/pods'), 200);
    assert.equal(await asControllers('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'), 200);
  });

  it('follows a custom resource while its CRD is served, and lets it go with the CRD', { timeout: 60_000 }, async () => {
    assert.equal((await callJson(server.url, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
    await waitFor('the controllers to read gadgets', async () => (await asControllers('GET', GADGETS)) === 200, 30_000);
    const created = await callJson(server.url, 'POST', GADGETS, { apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name: 'g' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(await asControllers('PUT', `${GADGETS}/g`, created.body), 403, 'patch and delete, never replace');
    assert.equal(await asControllers('DELETE', `${GADGETS}/g`), 200);

    const deleted = await callJson(server.url, 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${GROUP}`);
    assert.ok([200, 202].includes(deleted.status), JSON.stringify(deleted.body));
    await waitFor('the role to drop the group', async () => {
      const role = (await callJson(server.url, 'GET', ROLE_PATH)).body;
      return Array.isArray(role.rules) && !role.rules.some((rule: { apiGroups: string[] }) => rule.apiGroups.includes(GROUP));
    });
  });
});

// Who may do what, against a real `drover server`: six identities — the admin, a namespace `edit`
// user and a `view` user (static tokens), a service account with a Role, the agent of node A
// (client certificates the cluster CA signed) and nobody — times verbs on resources,
// subresources and watches, each against the answer Kubernetes would give: allowed (any status
// but 401/403), 403 Forbidden, or 401 Unauthorized.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { nodeSubject } from '../src/auth/components.js';
import { openClusterCa } from '../src/auth/pki/cluster-pki.js';
import type { TlsConfig } from '../src/client/config.js';
import { rawRequest } from './support/client/raw-request.js';
import { kubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

type Expected = 'ok' | 403 | 401;
type Identity = 'admin' | 'editor' | 'viewer' | 'robot' | 'nodeA' | 'anonymous';
const IDENTITIES: readonly Identity[] = ['admin', 'editor', 'viewer', 'robot', 'nodeA', 'anonymous'];

interface Case {
  what: string;
  method: string;
  path: string;
  body?: unknown;
  expect: Record<Identity, Expected>;
}

const T = '/api/v1/namespaces/team';
const row = (admin: Expected, editor: Expected, viewer: Expected, robot: Expected, nodeA: Expected, anonymous: Expected): Record<Identity, Expected> => ({
  admin,
  editor,
  viewer,
  robot,
  nodeA,
  anonymous,
});

const CASES: Case[] = [
  { what: 'list pods in team', method: 'GET', path: `${T}/pods`, expect: row('ok', 'ok', 'ok', 403, 403, 401) },
  {
    what: 'watch pods of node A everywhere',
    method: 'GET',
    path: '/api/v1/pods?watch=1&timeoutSeconds=1&fieldSelector=spec.nodeName%3Dnode-a',
    expect: row('ok', 403, 403, 403, 'ok', 401),
  },
  {
    what: 'watch pods of node B everywhere',
    method: 'GET',
    path: '/api/v1/pods?watch=1&timeoutSeconds=1&fieldSelector=spec.nodeName%3Dnode-b',
    expect: row('ok', 403, 403, 403, 403, 401),
  },
  { what: 'get the pod on node A', method: 'GET', path: `${T}/pods/pod-a`, expect: row('ok', 'ok', 'ok', 403, 'ok', 401) },
  { what: 'get the pod on node B', method: 'GET', path: `${T}/pods/pod-b`, expect: row('ok', 'ok', 'ok', 403, 403, 401) },
  { what: 'get the Secret pod A uses', method: 'GET', path: `${T}/secrets/secret-a`, expect: row('ok', 'ok', 403, 403, 'ok', 401) },
  { what: 'get the Secret pod B uses', method: 'GET', path: `${T}/secrets/secret-b`, expect: row('ok', 'ok', 403, 403, 403, 401) },
  { what: 'list Secrets', method: 'GET', path: `${T}/secrets`, expect: row('ok', 'ok', 403, 403, 403, 401) },
  { what: 'list ConfigMaps', method: 'GET', path: `${T}/configmaps`, expect: row('ok', 'ok', 'ok', 'ok', 403, 401) },
  { what: 'watch ConfigMaps', method: 'GET', path: `${T}/configmaps?watch=1&timeoutSeconds=1`, expect: row('ok', 'ok', 'ok', 'ok', 403, 401) },
  { what: 'get a ConfigMap in default', method: 'GET', path: '/api/v1/namespaces/default/configmaps/elsewhere', expect: row('ok', 403, 403, 403, 403, 401) },
  {
    what: 'create a ConfigMap (dry run)',
    method: 'POST',
    path: `${T}/configmaps?dryRun=All`,
    body: { metadata: { name: 'new' } },
    expect: row('ok', 'ok', 403, 403, 403, 401),
  },
  { what: 'delete a pod (dry run)', method: 'DELETE', path: `${T}/pods/pod-b?dryRun=All`, expect: row('ok', 'ok', 403, 403, 403, 401) },
  { what: 'read pod logs', method: 'GET', path: `${T}/pods/pod-a/log`, expect: row('ok', 'ok', 'ok', 403, 403, 401) },
  { what: 'exec into a pod', method: 'POST', path: `${T}/pods/pod-a/exec?command=true&stdout=1`, expect: row('ok', 'ok', 403, 403, 403, 401) },
  { what: 'port-forward to a pod', method: 'POST', path: `${T}/pods/pod-a/portforward?ports=80`, expect: row('ok', 'ok', 403, 403, 403, 401) },
  {
    what: 'evict a pod (dry run)',
    method: 'POST',
    path: `${T}/pods/pod-b/eviction?dryRun=All`,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'pod-b', namespace: 'team' } },
    expect: row('ok', 'ok', 403, 403, 403, 401),
  },
  {
    what: 'bind a pod',
    method: 'POST',
    path: `${T}/pods/ghost/binding`,
    body: { metadata: { name: 'ghost' }, target: { kind: 'Node', name: 'node-a' } },
    expect: row('ok', 403, 403, 403, 403, 401),
  },
  { what: 'update the status of the pod on node A', method: 'PUT', path: `${T}/pods/pod-a/status`, body: {}, expect: row('ok', 403, 403, 403, 'ok', 401) },
  { what: 'update the status of the pod on node B', method: 'PUT', path: `${T}/pods/pod-b/status`, body: {}, expect: row('ok', 403, 403, 403, 403, 401) },
  {
    what: "read a Deployment's scale",
    method: 'GET',
    path: '/apis/apps/v1/namespaces/team/deployments/web/scale',
    expect: row('ok', 'ok', 'ok', 403, 403, 401),
  },
  {
    what: "write a Deployment's scale",
    method: 'PATCH',
    path: '/apis/apps/v1/namespaces/team/deployments/web/scale?dryRun=All',
    body: { spec: { replicas: 2 } },
    expect: row('ok', 'ok', 403, 403, 403, 401),
  },
  {
    what: 'create a Role',
    method: 'POST',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles?dryRun=All',
    body: { metadata: { name: 'r' }, rules: [] },
    expect: row('ok', 403, 403, 403, 403, 401),
  },
  { what: 'list ClusterRoles', method: 'GET', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', expect: row('ok', 403, 403, 403, 403, 401) },
  {
    what: 'update Node A',
    method: 'PATCH',
    path: '/api/v1/nodes/node-a?dryRun=All',
    body: { metadata: { labels: { a: 'b' } } },
    expect: row('ok', 403, 403, 403, 'ok', 401),
  },
  {
    what: 'update Node B',
    method: 'PATCH',
    path: '/api/v1/nodes/node-b?dryRun=All',
    body: { metadata: { labels: { a: 'b' } } },
    expect: row('ok', 403, 403, 403, 403, 401),
  },
  {
    what: "renew node A's Lease",
    method: 'GET',
    path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-a',
    expect: row('ok', 403, 403, 403, 'ok', 401),
  },
  { what: 'discovery', method: 'GET', path: '/api', expect: row('ok', 'ok', 'ok', 'ok', 'ok', 401) },
  { what: 'health', method: 'GET', path: '/healthz', expect: row('ok', 'ok', 'ok', 'ok', 'ok', 'ok') },
  { what: 'metrics', method: 'GET', path: '/metrics', expect: row('ok', 403, 403, 403, 403, 401) },
];

describe('authorization: identities × verbs × resources', () => {
  let server: ServerProcess;
  const creds = new Map<Identity, { tls: TlsConfig; headers: Record<string, string> }>();

  before(async () => {
    const tokens = `${process.env['TMPDIR'] ?? '/tmp'}/drover-matrix-tokens-${process.pid}.csv`;
    await writeFile(tokens, 'editor-token-0123456789,edna,u-edna\nviewer-token-0123456789,victor,u-victor,"qa"\n', { mode: 0o600 });
    server = await startServerProcess({ extraArgs: ['--no-control-plane', '--token-auth-file', tokens] });
    const ca = await openClusterCa(server.dataDir);
    const certificate = async (commonName: string, organizations: string[]): Promise<TlsConfig> => {
      const issued = await ca.issue({ commonName, organizations }, 'client');
      return { ca: Buffer.from(ca.caPem), cert: Buffer.from(issued.certPem), key: Buffer.from(issued.keyPem) };
    };
    const caOnly: TlsConfig = { ca: Buffer.from(ca.caPem) };
    const node = nodeSubject('node-a');
    creds.set('admin', { tls: server.tls, headers: {} });
    creds.set('editor', { tls: caOnly, headers: { Authorization: 'Bearer editor-token-0123456789' } });
    creds.set('viewer', { tls: caOnly, headers: { Authorization: 'Bearer viewer-token-0123456789' } });
    creds.set('robot', { tls: await certificate('system:serviceaccount:team:robot', ['system:serviceaccounts', 'system:serviceaccounts:team']), headers: {} });
    creds.set('nodeA', { tls: await certificate(node.commonName, node.organizations!), headers: {} });
    creds.set('anonymous', { tls: caOnly, headers: {} });
    await kubectl(server.kubeconfig, ['apply', '-f', '-'], { input: FIXTURES });
  });
  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });

  it('answers every identity as Kubernetes would', async () => {
    const wrong: string[] = [];
    for (const c of CASES) {
      for (const who of IDENTITIES) {
        const { tls, headers } = creds.get(who)!;
        const body = c.body === undefined ? undefined : JSON.stringify(c.body);
        const contentType = c.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
        const answer = await rawRequest(server.url, tls, c.method, c.path, body, body === undefined ? headers : { ...headers, 'Content-Type': contentType });
        const got: Expected = answer.status === 401 || answer.status === 403 ? answer.status : 'ok';
        if (got !== c.expect[who]) wrong.push(`${who} ${c.what}: expected ${c.expect[who]}, got ${answer.status} ${answer.text.slice(0, 160)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("says why in Kubernetes' words, and tells each user who they are", async () => {
    const { tls, headers } = creds.get('viewer')!;
    const denied = await rawRequest(server.url, tls, 'GET', `${T}/secrets/secret-a`, undefined, headers);
    assert.equal(denied.json.reason, 'Forbidden');
    assert.equal(denied.json.message, 'secrets "secret-a" is forbidden: User "victor" cannot get resource "secrets" in API group "" in the namespace "team"');
    const who = await rawRequest(
      server.url,
      tls,
      'POST',
      '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      headers,
    );
    assert.deepEqual(who.json.status.userInfo, { username: 'victor', uid: 'u-victor', groups: ['qa', 'system:authenticated'] });
    const node = creds.get('nodeA')!;
    const refused = await rawRequest(server.url, node.tls, 'GET', `${T}/secrets/secret-b`, undefined, node.headers);
    assert.match(refused.json.message, /User "system:node:node-a" cannot get resource "secrets".*: node 'node-a' has no relationship with this object$/);
    const anonymous = await rawRequest(server.url, creds.get('anonymous')!.tls, 'GET', `${T}/pods`);
    assert.deepEqual([anonymous.status, anonymous.json.reason], [401, 'Unauthorized']);
  });

  it('answers kubectl auth can-i from the same rules, for other users too', async () => {
    const canI = (...args: string[]) =>
      kubectl(server.kubeconfig, ['auth', 'can-i', ...args]).then(
        (out) => out.trim(),
        (error: Error) => (/\bno\b/.test(error.message) ? 'no' : error.message),
      );
    assert.equal(await canI('create', 'deployments', '-n', 'team', '--as', 'edna'), 'yes');
    assert.equal(await canI('get', 'secrets', '-n', 'team', '--as', 'victor'), 'no');
    assert.equal(await canI('list', 'configmaps', '-n', 'team', '--as', 'system:serviceaccount:team:robot'), 'yes');
    assert.equal(await canI('create', 'pods/exec', '-n', 'team', '--as', 'victor'), 'no');
  });
});

const FIXTURES = `
apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: v1
kind: Node
metadata: {name: node-b}
---
apiVersion: v1
kind: Secret
metadata: {name: secret-a, namespace: team}
stringData: {p: a}
---
apiVersion: v1
kind: Secret
metadata: {name: secret-b, namespace: team}
stringData: {p: b}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: elsewhere, namespace: default}
---
apiVersion: v1
kind: Pod
metadata: {name: pod-a, namespace: team}
spec:
  nodeName: node-a
  containers: [{name: c, image: drover-test/busybox:1, env: [{name: P, valueFrom: {secretKeyRef: {name: secret-a, key: p}}}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: pod-b, namespace: team}
spec:
  nodeName: node-b
  containers: [{name: c, image: drover-test/busybox:1}]
  volumes: [{name: s, secret: {secretName: secret-b}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: drover-test/busybox:1}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: edna-edit, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: edna}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: qa-view, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: qa}]
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: robot, namespace: team}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: configmap-reader, namespace: team}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: robot-reads-configmaps, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: configmap-reader}
subjects: [{kind: ServiceAccount, name: robot, namespace: team}]
`;

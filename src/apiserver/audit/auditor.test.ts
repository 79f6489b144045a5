// The audit log of a real API server in this process: stages, levels, objects and codes.
import { connect as tlsConnect } from 'node:tls';
import { ADMIN_SUBJECT } from '../../auth/cluster-security.js';
import { testSecurity } from '../../../test/support/auth/security.js';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callJson, TestServer } from '../../../test/support/apiserver/in-process-server.js';
import { handlePodUpgrade } from '../handlers/pod-proxy.js';
import type { ResourceRequest } from '../handlers/context.js';
import { writeJson } from '../http-io.js';
import { PolicyError } from './policy.js';

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitManagedFields: true
rules:
  - level: None
    nonResourceURLs: ["/healthz*"]
  - level: RequestResponse
    resources: [{group: "", resources: ["configmaps"]}]
  - level: Request
    resources: [{group: "", resources: ["secrets"]}]
    omitStages: [RequestReceived]
  - level: None
    resources: [{group: "", resources: ["events"]}]
  - level: Metadata
`;

type Event = Record<string, any>;

describe('audit log of the API server', () => {
  /** The audit policy files and logs; the test server keeps its data in its own. */
  let dir: string;
  let server: TestServer;
  let events: Event[] = [];
  const byId = (id: string) => events.filter((e) => e.auditID === id);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-auditor-'));
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    server = await TestServer.start({
      onUpgrade: handlePodUpgrade,
      subresources: new Map([
        [
          '/pods/boom',
          async () => {
            throw new Error('a bug in a handler');
          },
        ],
        [
          '/pods/noted',
          async (ctx: ResourceRequest) => {
            // As Pod Security admission in audit mode does.
            ctx.auditAnnotations = { ...ctx.auditAnnotations, 'pod-security.kubernetes.io/audit-violations': 'would violate "restricted"' };
            writeJson(ctx.res, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 200 });
          },
        ],
      ]),
      audit: { logPath: join(dir, 'audit.log'), policyFile: join(dir, 'policy.yaml') },
    });
    const call = (method: string, path: string, body?: unknown) => callJson(server.url, method, path, body);
    await call('GET', '/healthz');
    assert.equal(
      (await call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } })).status,
      201,
    );
    assert.equal(
      (await call('POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } })).status,
      201,
    );
    assert.equal((await call('GET', '/api/v1/namespaces/default/pods/nope')).status, 404);
    assert.equal(
      (await call('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Bad_Name' }, spec: { containers: [] } }))
        .status,
      422,
    );
    assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1')).status, 200);
    assert.equal((await call('POST', '/api/v1/namespaces/default/pods/p/boom', {})).status, 500);
    assert.equal((await call('GET', '/api/v1/namespaces/default/pods/p/noted')).status, 200);
    await upgrade(server.apiServer.port, '/api/v1/namespaces/default/pods/nope/exec?command=sh');
    // Stopped, the server has written its last audit events.
    await server.stop();
    events = (await readFile(join(dir, 'audit.log'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Event);
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes Events with both stages of a request, sharing an auditID', () => {
    const create = events.filter((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps');
    assert.deepEqual(
      create.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    const [received, complete] = create as [Event, Event];
    assert.equal(received.auditID, complete.auditID);
    assert.equal(complete.kind, 'Event');
    assert.equal(complete.apiVersion, 'audit.k8s.io/v1');
    assert.equal(complete.requestURI, '/api/v1/namespaces/default/configmaps');
    assert.deepEqual(complete.objectRef, { resource: 'configmaps', namespace: 'default', name: 'cm', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
    assert.deepEqual(complete.user, { username: ADMIN_SUBJECT.commonName, groups: [...ADMIN_SUBJECT.organizations!, 'system:authenticated'] });
    assert.deepEqual(complete.sourceIPs, ['127.0.0.1']);
    assert.match(complete.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(complete.requestReceivedTimestamp, received.stageTimestamp);
    assert.equal(received.responseStatus, undefined);
  });

  it('keeps the objects the level asks for, without managedFields when the policy omits them', () => {
    const complete = events.find((e) => e.objectRef?.resource === 'configmaps' && e.verb === 'create' && e.stage === 'ResponseComplete')!;
    assert.equal(complete.level, 'RequestResponse');
    assert.deepEqual(complete.requestObject.data, { a: '1' });
    assert.equal(complete.responseObject.metadata.name, 'cm');
    assert.ok(complete.responseObject.metadata.uid);
    assert.equal(complete.responseObject.metadata.managedFields, undefined);
    const secret = events.filter((e) => e.objectRef?.resource === 'secrets');
    assert.deepEqual(
      secret.map((e) => e.stage),
      ['ResponseComplete'],
      'the rule omits RequestReceived',
    );
    assert.equal(secret[0]!.level, 'Request');
    assert.deepEqual(secret[0]!.requestObject.stringData, { k: 'v' });
    assert.equal(secret[0]!.responseObject, undefined);
    const metadata = events.filter((e) => e.level === 'Metadata');
    assert.ok(metadata.length > 0);
    assert.ok(metadata.every((e) => e.requestObject === undefined && e.responseObject === undefined));
  });

  it('logs nothing at None', () => {
    assert.equal(events.filter((e) => e.requestURI.startsWith('/healthz')).length, 0);
  });

  it('logs a refused request with its code, reason and message', () => {
    const notFound = events.find((e) => e.objectRef?.name === 'nope' && e.verb === 'get' && e.stage === 'ResponseComplete')!;
    assert.equal(notFound.responseStatus.code, 404);
    assert.equal(notFound.responseStatus.reason, 'NotFound');
    assert.equal(notFound.responseStatus.status, 'Failure');
    const invalid = events.find((e) => e.objectRef?.name === 'Bad_Name' && e.stage === 'ResponseComplete')!;
    assert.equal(invalid.verb, 'create');
    assert.equal(invalid.responseStatus.code, 422);
    assert.equal(invalid.responseStatus.reason, 'Invalid');
  });

  it('gives a watch ResponseStarted, and ResponseComplete when it ends', () => {
    const watch = events.filter((e) => e.verb === 'watch');
    assert.deepEqual(
      watch.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
    assert.equal(watch[2]!.responseStatus.code, 200);
    assert.equal(watch[2]!.responseObject, undefined, 'a stream has no one response object');
  });

  it('writes Panic, not ResponseComplete, for a 500 a handler did not mean', () => {
    const boom = events.filter((e) => e.objectRef?.subresource === 'boom');
    assert.deepEqual(
      boom.map((e) => e.stage),
      ['RequestReceived', 'Panic'],
    );
    assert.equal(boom[1]!.responseStatus.code, 500);
    assert.match(boom[1]!.responseStatus.message, /^APIServer panic'd: /);
  });

  it('audits upgrades (exec) with the status the client got', () => {
    const exec = events.filter((e) => e.objectRef?.subresource === 'exec');
    assert.deepEqual(
      exec.map((e) => e.stage),
      ['RequestReceived', 'ResponseStarted', 'ResponseComplete'],
    );
    // The verb it was authorized as: opening a stream into a container is a create, GET or POST.
    assert.equal(exec[0]!.verb, 'create');
    assert.equal(exec[2]!.responseStatus.code, 404);
    assert.equal(byId(exec[0]!.auditID).length, 3);
  });

  it('copies the annotations the request gathered (admission, authorization) into its event', () => {
    const noted = events.filter((e) => e.objectRef?.subresource === 'noted');
    assert.deepEqual(
      noted.map((e) => e.annotations),
      [undefined, { 'pod-security.kubernetes.io/audit-violations': 'would violate "restricted"' }],
    );
  });

  it('refuses to start on a malformed policy', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Loud}]\n');
    await assert.rejects(
      TestServer.start({ audit: { logPath: join(dir, 'never.log'), policyFile: join(dir, 'bad.yaml') } }),
      (error: unknown) => error instanceof PolicyError && /bad\.yaml: rules\[0\]\.level: Unsupported value: "Loud"/.test(error.message),
    );
  });
});

async function upgrade(port: number, path: string): Promise<string> {
  const { admin } = await testSecurity();
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: admin.ca, cert: admin.cert, key: admin.key }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: api\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

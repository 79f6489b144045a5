// `drover server --audit-log --audit-policy-file`: what kubectl does shows up in the log as
// kube-apiserver would write it (audit.k8s.io/v1 Events), levels as the policy says, refused
// requests with their codes, and the log rotated at its size.
import assert from 'node:assert/strict';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

type Event = Record<string, any>;

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  # the servers' own bookkeeping (their Leases, the kubernetes Endpoints): not worth a line
  - level: None
    users: ["system:apiserver"]
  # discovery and health: not worth a line
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*", "/version", "/openapi*", "/api", "/api/*", "/apis", "/apis/*"]
  - level: None
    resources: [{group: "", resources: ["events"]}]
  - level: RequestResponse
    resources: [{group: "", resources: ["configmaps"]}]
  - level: Request
    resources: [{group: apps, resources: ["deployments", "deployments/scale"]}]
  - level: None
    verbs: [get, list, watch]
  - level: Metadata
`;

async function readEvents(path: string): Promise<Event[]> {
  return (await readFile(path, 'utf8'))
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Event);
}

describe('drover server --audit-log with a policy', () => {
  let server: ServerProcess;
  let log: string;
  let events: Event[];
  const run = (...args: string[]) => kubectl(server.kubeconfig, args);
  const find = (verb: string, resource: string, name: string, subresource?: string) =>
    events.filter((e) => e.verb === verb && e.objectRef?.resource === resource && e.objectRef?.name === name && e.objectRef?.subresource === subresource);

  before(async () => {
    requireKubectl();
    server = await startServerProcess({ extraArgs: ['--no-control-plane'] }).then(async (probe) => {
      // The policy goes in the data dir the server made, so the test leaves nothing behind.
      await probe.stop();
      log = join(probe.dataDir, 'audit.log');
      await writeFile(join(probe.dataDir, 'policy.yaml'), POLICY);
      return startServerProcess({
        dataDir: probe.dataDir,
        extraArgs: ['--no-control-plane', '--audit-log', log, '--audit-policy-file', join(probe.dataDir, 'policy.yaml')],
      });
    });
    await run('create', 'namespace', 'audited');
    await run('-n', 'audited', 'create', 'deployment', 'web', '--image=drover-test/busybox:1');
    await run('-n', 'audited', 'scale', 'deployment', 'web', '--replicas=2');
    await run('-n', 'audited', 'label', 'deployment', 'web', 'tier=front');
    await kubectl(server.kubeconfig, ['-n', 'audited', 'apply', '--server-side', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'fast' } }),
    });
    await run('-n', 'audited', 'get', 'configmap', 'settings');
    const impersonating = await kubectlRaw(server.kubeconfig, ['-n', 'audited', 'create', 'configmap', 'as-alice', '--as', 'alice']);
    assert.match(impersonating.stderr, /forbidden: User "alice" cannot create resource "configmaps"/);
    await run('-n', 'audited', 'delete', 'configmap', 'settings');
    const missing = await kubectlRaw(server.kubeconfig, ['-n', 'audited', 'delete', 'configmap', 'nope']);
    assert.notEqual(missing.code, 0);
    const invalid = await kubectlRaw(server.kubeconfig, ['-n', 'audited', 'create', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'empty' }, spec: { containers: [] } }),
    });
    assert.notEqual(invalid.code, 0, invalid.stdout);
    await run('-n', 'audited', 'get', 'pods');
    await run('-n', 'audited', 'delete', 'deployment', 'web');
    // A clean stop writes every queued line.
    assert.equal(await server.stop(), 0, server.output());
    events = await readEvents(log);
  });
  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });

  it('logs every write with its verb, resource, name and code, as audit.k8s.io/v1 Events', () => {
    const expected: [string, string, string, string | undefined, number][] = [
      ['create', 'namespaces', 'audited', undefined, 201],
      ['create', 'deployments', 'web', undefined, 201],
      ['patch', 'deployments', 'web', 'scale', 200],
      ['patch', 'deployments', 'web', undefined, 200],
      ['patch', 'configmaps', 'settings', undefined, 201],
      ['delete', 'configmaps', 'settings', undefined, 200],
      ['delete', 'deployments', 'web', undefined, 200],
    ];
    for (const [verb, resource, name, subresource, code] of expected) {
      const found = find(verb, resource, name, subresource);
      assert.equal(
        found.length,
        1,
        `${verb} ${resource}/${name}${subresource ? `/${subresource}` : ''} in ${JSON.stringify(events.map((e) => [e.verb, e.objectRef]))}`,
      );
      const event = found[0]!;
      assert.equal(event.kind, 'Event');
      assert.equal(event.apiVersion, 'audit.k8s.io/v1');
      assert.equal(event.stage, 'ResponseComplete', 'the policy omits RequestReceived');
      assert.equal(event.responseStatus.code, code, `${verb} ${resource}/${name}`);
      assert.match(event.auditID, /^[0-9a-f-]{36}$/);
      assert.match(event.userAgent, /^kubectl\//);
      assert.ok(event.sourceIPs.includes('127.0.0.1'));
      assert.match(event.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    assert.equal(find('create', 'deployments', 'web')[0]!.objectRef.apiGroup, 'apps');
    assert.equal(find('create', 'deployments', 'web')[0]!.objectRef.namespace, 'audited');
  });

  it('records who impersonated whom (kubectl --as), refusals included', () => {
    const refused = events.filter((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.responseStatus?.code === 403);
    assert.equal(refused.length, 1, JSON.stringify(events.map((e) => [e.verb, e.objectRef, e.responseStatus?.code])));
    assert.equal(refused[0]!.user.username, 'drover-admin');
    assert.deepEqual(refused[0]!.impersonatedUser, { username: 'alice', groups: ['system:authenticated'] });
  });

  it('names one user on every event (the admin kubeconfig’s)', () => {
    const users = new Set(events.map((e) => JSON.stringify(e.user)));
    assert.equal(users.size, 1, [...users].join('\n'));
    assert.deepEqual(events[0]!.user, { username: 'drover-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('keeps the request object at Request level, and the response too at RequestResponse', () => {
    const create = find('create', 'deployments', 'web')[0]!;
    assert.equal(create.level, 'Request');
    assert.equal(create.requestObject.kind, 'Deployment');
    assert.equal(create.requestObject.spec.template.spec.containers[0].image, 'drover-test/busybox:1');
    assert.equal(create.responseObject, undefined);
    assert.deepEqual(find('patch', 'deployments', 'web', 'scale')[0]!.requestObject, { spec: { replicas: 2 } });
    const apply = find('patch', 'configmaps', 'settings')[0]!;
    assert.equal(apply.level, 'RequestResponse');
    assert.deepEqual(apply.requestObject.data, { mode: 'fast' });
    assert.equal(apply.responseObject.metadata.name, 'settings');
    assert.ok(apply.responseObject.metadata.resourceVersion);
    const namespace = find('create', 'namespaces', 'audited')[0]!;
    assert.equal(namespace.level, 'Metadata');
    assert.equal(namespace.requestObject, undefined);
  });

  it('skips what the policy sets to None', () => {
    // Reads of deployments and configmaps match the rules above the one that drops reads.
    const reads = events.filter((e) => ['get', 'list', 'watch'].includes(e.verb));
    assert.ok(reads.some((e) => e.objectRef.resource === 'deployments'));
    assert.deepEqual(
      reads.filter((e) => !['deployments', 'configmaps'].includes(e.objectRef.resource)).map((e) => e.requestURI),
      [],
    );
    assert.deepEqual(
      events.filter((e) => e.objectRef?.resource === 'events'),
      [],
    );
    assert.deepEqual(
      events.filter((e) => e.requestURI.startsWith('/openapi') || e.requestURI.startsWith('/api?') || e.requestURI === '/api'),
      [],
    );
  });

  it('logs refused requests with their codes', () => {
    const missing = find('delete', 'configmaps', 'nope')[0]!;
    assert.equal(missing.responseStatus.code, 404);
    assert.equal(missing.responseStatus.reason, 'NotFound');
    const invalid = find('create', 'pods', 'empty')[0]!;
    assert.equal(invalid.responseStatus.code, 422);
    assert.equal(invalid.responseStatus.reason, 'Invalid');
    assert.match(invalid.responseStatus.message, /containers/);
  });

  it('keeps the log to its owner', async () => {
    assert.equal(((await stat(log)).mode & 0o777).toString(8), '600');
  });
});

describe('drover server --audit-log-maxsize', () => {
  let server: ServerProcess | undefined;
  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });

  it('rotates at the size to lumberjack-named backups and keeps --audit-log-maxbackup of them', async () => {
    requireKubectl();
    const probe = await startServerProcess({ extraArgs: ['--no-control-plane'] });
    await probe.stop();
    const dir = probe.dataDir;
    const policy = join(dir, 'policy.json');
    await writeFile(
      policy,
      JSON.stringify({
        apiVersion: 'audit.k8s.io/v1',
        kind: 'Policy',
        rules: [{ level: 'RequestResponse', resources: [{ group: '', resources: ['configmaps'] }] }],
      }),
    );
    const log = join(dir, 'audit.log');
    server = await startServerProcess({
      dataDir: dir,
      extraArgs: ['--no-control-plane', '--audit-log', log, '--audit-policy-file', policy, '--audit-log-maxsize', '1', '--audit-log-maxbackup', '2'],
    });
    // Each create logs ~300 kB twice (request and response): about 0.6 MB per event.
    const data = join(dir, 'data.txt');
    await writeFile(data, 'x'.repeat(300_000));
    for (let i = 0; i < 6; i++) await kubectl(server.kubeconfig, ['create', 'configmap', `big-${i}`, `--from-file=data=${data}`]);
    assert.equal(await server.stop(), 0);
    const names = (await readdir(dir)).filter((n) => n.startsWith('audit'));
    const backups = names.filter((n) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(n));
    assert.equal(backups.length, 2, names.join(', '));
    assert.deepEqual(names.sort(), [...backups, 'audit.log'].sort());
    const seen: string[] = [];
    for (const name of names) {
      const info = await stat(join(dir, name));
      assert.ok(info.size <= 1024 * 1024, `${name}: ${info.size} bytes`);
      assert.equal((info.mode & 0o777).toString(8), '600', name);
      for (const event of await readEvents(join(dir, name))) if (event.stage === 'ResponseComplete') seen.push(event.objectRef.name);
    }
    // The newest survive rotation; the oldest went with the backups dropped.
    assert.ok(seen.includes('big-5'), seen.join(', '));
    assert.ok(!seen.includes('big-0'), seen.join(', '));
  });
});

describe('drover server --audit-policy-file that is malformed', () => {
  it('refuses to start, naming the file and the field', async () => {
    const probe = await startServerProcess({ extraArgs: ['--no-control-plane'] });
    await probe.stop();
    const policy = join(probe.dataDir, 'policy.yaml');
    await writeFile(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Everything\n');
    try {
      await assert.rejects(
        startServerProcess({
          dataDir: probe.dataDir,
          extraArgs: ['--no-control-plane', '--audit-log', join(probe.dataDir, 'audit.log'), '--audit-policy-file', policy],
        }),
        /exited with 1 before listening:[\s\S]*audit policy .*policy\.yaml: rules\[0\]\.level: Unsupported value: "Everything"/,
      );
    } finally {
      await probe.cleanup();
    }
  });
});

describe('Transactions name the user who caused them', () => {
  let server: ServerProcess | undefined;
  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });

  it("records the deployment's changer (drover.dev/changed-by) on its launch and scale transactions", async () => {
    requireKubectl();
    server = await startServerProcess();
    const kc = server.kubeconfig;
    await kubectl(kc, ['create', 'deployment', 'owned', '--image=drover-test/busybox:1']);
    const changer = (await kubectl(kc, ['get', 'deployment', 'owned', '-o', 'jsonpath={.metadata.annotations.drover\\.dev/changed-by}'])).trim();
    assert.equal(changer, 'drover-admin', 'the server names who created the deployment');
    await kubectl(kc, ['scale', 'deployment', 'owned', '--replicas=2']);
    const transactions = async () =>
      JSON.parse(await kubectl(kc, ['get', 'transactions', '-l', 'drover.dev/target-name=owned', '-o', 'json'])).items as Event[];
    const seen = await waitFor(
      'a launch and a scale transaction of the deployment',
      async () => {
        const ofDeployment = (await transactions()).filter((tx) => tx.spec.target.kind === 'Deployment');
        assert.deepEqual(
          ['launch', 'scale'].filter((op) => !ofDeployment.some((tx) => tx.spec.operation === op)),
          [],
          `missing among ${JSON.stringify(ofDeployment.map((t) => t.spec))}`,
        );
        return ofDeployment;
      },
      20_000,
    );
    for (const op of ['launch', 'scale']) {
      const tx = seen.find((t) => t.spec.operation === op);
      assert.ok(tx, `a ${op} transaction of the deployment: ${JSON.stringify(seen.map((t) => t.spec))}`);
      assert.equal(tx.spec.user, changer, op);
    }
  });
});

// `drover server` flags that change what the API server keeps, checked on a real server process,
// and the --data-dir every command checks before it starts anything.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient, resources } from '../src/client/index.js';
import { DROVER_BIN, startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

describe('drover server --event-ttl', () => {
  let server: ServerProcess;
  let api: ApiClient;
  before(async () => {
    server = await startServerProcess({ extraArgs: ['--event-ttl', '2', '--no-control-plane'] });
    api = new ApiClient({ server: server.url, namespace: 'default', tls: server.tls });
  });
  after(async () => {
    api.close();
    await server.stop();
    await server.cleanup();
  });

  it('deletes an Event once it has not been seen for the TTL, and keeps a fresh one', async () => {
    const events = api.resource(resources.events, 'default');
    const event = (name: string, lastTimestamp: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Test',
      message: name,
      type: 'Normal',
      firstTimestamp: lastTimestamp,
      lastTimestamp,
      count: 1,
    });
    const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    await events.create(event('old', now()));
    await waitFor('the old event expired', async () => (await events.list()).items.every((e) => e.metadata.name !== 'old'), 10_000);
    await events.create(event('fresh', now()));
    assert.deepEqual(
      (await events.list()).items.map((e) => e.metadata.name),
      ['fresh'],
    );
  });

  it('keeps its data dir to its owner: the dir 0700, state.db, its WAL and the kubeconfig 0600', async () => {
    const mode = async (file: string) => ((await stat(join(server.dataDir, file))).mode & 0o777).toString(8);
    assert.equal(await mode('.'), '700');
    for (const file of ['state.db', 'state.db-wal', 'kubeconfig']) assert.equal(await mode(file), '600', file);
  });

  it('has the kube-dns Service at the cluster DNS address, without a selector', async () => {
    const dns = await api.resource(resources.services, 'kube-system').get('kube-dns');
    const spec = dns['spec'] as { clusterIP: string; selector?: unknown; ports: Array<{ name: string; port: number; protocol: string }> };
    assert.equal(spec.clusterIP, '10.43.0.10');
    assert.equal(spec.selector, undefined);
    assert.deepEqual(
      spec.ports.map((p) => `${p.name} ${p.port}/${p.protocol}`),
      ['dns 53/UDP', 'dns-tcp 53/TCP'],
    );
    assert.equal(dns.metadata.labels?.['k8s-app'], 'kube-dns');
  });
});

describe('drover --data-dir that cannot be used', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-unusable-'));
    await writeFile(join(dir, 'a-file'), '');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const args of [
    ['server', '--port', '0'],
    ['up', '--port', '0', '--node-name', 'never-started'],
    ['agent', '--node-name', 'never-started', '--server', 'http://127.0.0.1:1'],
  ]) {
    it(`stops drover ${args[0]} at the start with one line naming the flag, exit code 1`, () => {
      // Relative, from where the command runs: the message shows what it was taken to mean.
      const run = spawnSync(DROVER_BIN, [...args, '--data-dir', 'a-file/data'], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, `--data-dir a-file/data: cannot create ${join(dir, 'a-file/data')}: a file is in the way of a parent directory\n`);
    });
  }
});

describe('drover --service-cidr, --cluster-cidr and --cluster-dns that do not make a plan', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'drover-bad-network-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const cases: Array<[string[], string]> = [
    [['server', '--port', '0', '--service-cidr', 'nonsense'], '--service-cidr "nonsense" is not an IPv4 CIDR such as 10.42.0.0/16 (host bits must be zero)'],
    [
      ['up', '--port', '0', '--node-name', 'never-started', '--cluster-cidr', '10.43.0.0/16'],
      '--cluster-cidr 10.43.0.0/16 and --service-cidr 10.43.0.0/16 overlap',
    ],
    [
      ['agent', '--node-name', 'never-started', '--server', 'http://127.0.0.1:1', '--cluster-dns', '10.42.0.10'],
      '--cluster-dns 10.42.0.10 is not inside --service-cidr 10.43.0.0/16',
    ],
  ];
  for (const [args, message] of cases) {
    it(`stops drover ${args[0]} at the start with the flag at fault, exit code 1`, () => {
      const run = spawnSync(DROVER_BIN, [...args, '--data-dir', join(dir, args[0]!)], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, `${message}\n`);
    });
  }
});

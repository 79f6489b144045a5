// `drover server --etcd-endpoints` as a user runs it: a server process on a real etcd member,
// driven by the real kubectl. Its state lives in etcd (resourceVersion is etcd's mod_revision),
// survives the server's restart, and an etcd that is down is a 503 with a message, not a hang.
import { fetchWithTls } from './support/client/raw-request.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startEtcd, type EtcdMember } from './support/storage/etcd-member.js';
import { KUBECTL, kubectl, kubectlArgs, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

interface WatchLine {
  type: string;
  object: { metadata: { name: string; resourceVersion: string } };
}

/** `kubectl get configmaps --watch`, its events as they arrive. */
function watchConfigMaps(kubeconfig: string): { child: ChildProcess; events: WatchLine[] } {
  const child = spawn(KUBECTL, kubectlArgs(kubeconfig, ['get', 'configmaps', '--watch-only', '--output-watch-events', '-o', 'json']), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events: WatchLine[] = [];
  let buffered = '';
  // kubectl prints each event as an indented JSON document; they start at column 0.
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const documents = buffered.split(/\n(?=\{)/);
    buffered = documents.pop() ?? '';
    // A chunk may begin with the newline that ended the document parsed last: nothing before it.
    for (const document of documents) if (document.trim() !== '') events.push(JSON.parse(document) as WatchLine);
    if (buffered.trimEnd().endsWith('}')) {
      try {
        events.push(JSON.parse(buffered) as WatchLine);
        buffered = '';
      } catch {
        // Not a whole document yet.
      }
    }
  });
  return { child, events };
}

function etcdModRevision(endpoint: string, key: string): number {
  const run = spawnSync('etcdctl', ['--endpoints', endpoint, 'get', key, '-w', 'json'], { encoding: 'utf8', env: { ...process.env, ETCDCTL_API: '3' } });
  assert.equal(run.status, 0, run.stderr);
  const kv = (JSON.parse(run.stdout) as { kvs?: Array<{ mod_revision: number }> }).kvs?.[0];
  assert.ok(kv, `${key} is not in etcd`);
  return kv.mod_revision;
}

/** Servers on one etcd share a token: it seals the cluster CA they all serve with. */
const ETCD_TOKEN = 'etcd-server-test-token-secret';

describe('drover server --etcd-endpoints', () => {
  let etcd: EtcdMember;
  let server: ServerProcess;
  // A restart gets a fresh data dir: the token is what opens the cluster CA kept in etcd. The
  // request timeout is the default (5 s): a stopped etcd refuses at once whatever it is (the
  // down case below answers in ~0.2 s), and with 2 s three calls in a row failed on a busy CI
  // machine a few seconds after the server started, slow answers most likely, which opened the
  // client's circuit mid-test (every call then failed fast for a second).
  const start = () => startServerProcess({ extraArgs: ['--etcd-endpoints', etcd.endpoint, '--token', ETCD_TOKEN] });
  before(async () => {
    requireKubectl();
    etcd = await startEtcd();
    server = await start();
  });
  after(async () => {
    await server?.stop();
    await server?.cleanup();
    await etcd?.cleanup();
  });

  it("serves kubectl create, get and watch from etcd; resourceVersion is the key's mod_revision", async () => {
    const watch = watchConfigMaps(server.kubeconfig);
    try {
      // The watch is open once kubectl has asked; a create before that would be missed.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await kubectl(server.kubeconfig, ['create', 'configmap', 'c1', '--from-literal=a=b']);
      const created = JSON.parse(await kubectl(server.kubeconfig, ['get', 'configmap', 'c1', '-o', 'json'])) as WatchLine['object'];
      assert.equal(Number(created.metadata.resourceVersion), etcdModRevision(etcd.endpoint, '/registry/configmaps/default/c1'));
      await kubectl(server.kubeconfig, ['label', 'configmap', 'c1', 'tier=web']);
      const events = await waitFor('two watch events', async () => (watch.events.length >= 2 ? watch.events : undefined), 10_000);
      assert.deepEqual(
        events.map((event) => [event.type, event.object.metadata.name]),
        [
          ['ADDED', 'c1'],
          ['MODIFIED', 'c1'],
        ],
      );
      assert.equal(events[0]!.object.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.equal(Number(events[1]!.object.metadata.resourceVersion), etcdModRevision(etcd.endpoint, '/registry/configmaps/default/c1'));
    } finally {
      watch.child.kill();
    }
  });

  it('keeps its objects and revision across a server restart', async () => {
    const before = JSON.parse(await kubectl(server.kubeconfig, ['get', 'configmap', 'c1', '-o', 'json'])) as WatchLine['object'];
    await server.stop();
    await server.cleanup();
    server = await start();
    const afterRestart = JSON.parse(await kubectl(server.kubeconfig, ['get', 'configmap', 'c1', '-o', 'json'])) as WatchLine['object'];
    assert.equal(afterRestart.metadata.resourceVersion, before.metadata.resourceVersion);
    await kubectl(server.kubeconfig, ['create', 'configmap', 'c2']);
    const c2 = JSON.parse(await kubectl(server.kubeconfig, ['get', 'configmap', 'c2', '-o', 'json'])) as WatchLine['object'];
    assert.ok(Number(c2.metadata.resourceVersion) > Number(before.metadata.resourceVersion));
  });

  it('answers 503 with a message while etcd is down, within the request timeout, is not ready, and recovers when it is back', async () => {
    await etcd.stop();
    const started = Date.now();
    const read = await kubectlRaw(server.kubeconfig, ['get', 'configmaps']);
    const write = await kubectlRaw(server.kubeconfig, ['create', 'configmap', 'c3']);
    assert.ok(Date.now() - started < 10_000, `kubectl took ${Date.now() - started} ms`);
    console.log('etcd down: read and write answered in', Date.now() - started, 'ms');
    assert.notEqual(read.code, 0);
    assert.match(read.stderr, /ServiceUnavailable.*the storage backend is unavailable: etcd \(http:\/\/127\.0\.0\.1:\d+\)/);
    assert.notEqual(write.code, 0);
    assert.match(write.stderr, /the storage backend is unavailable/);
    // Not ready while etcd is down, yet alive: nothing should restart the server for it.
    assert.equal((await fetchWithTls(`${server.url}/readyz`, server.tls)).status, 503);
    assert.equal((await fetchWithTls(`${server.url}/livez`, server.tls)).status, 200);
    await etcd.restart();
    const names = await waitFor(
      'kubectl get after etcd restarted',
      async () => (await kubectl(server.kubeconfig, ['get', 'configmaps', '-o', 'name'])) || undefined,
      15_000,
    );
    assert.match(names, /configmap\/c1\nconfigmap\/c2/);
    assert.equal((await fetchWithTls(`${server.url}/readyz`, server.tls)).status, 200);
  });
});

describe('two drover servers on one etcd', () => {
  let etcd: EtcdMember;
  const servers: ServerProcess[] = [];
  before(async () => {
    requireKubectl();
    etcd = await startEtcd();
    for (let i = 0; i < 2; i++)
      servers.push(await startServerProcess({ extraArgs: ['--etcd-endpoints', etcd.endpoint, '--no-control-plane', '--token', ETCD_TOKEN] }));
  });
  after(async () => {
    for (const server of servers) {
      await server.stop();
      await server.cleanup();
    }
    await etcd?.cleanup();
  });

  it('an object written through one is read and watched through the other', async () => {
    const [one, two] = servers as [ServerProcess, ServerProcess];
    const watch = watchConfigMaps(two.kubeconfig);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await kubectl(one.kubeconfig, ['create', 'configmap', 'shared', '--from-literal=a=b']);
      const viaTwo = JSON.parse(await kubectl(two.kubeconfig, ['get', 'configmap', 'shared', '-o', 'json'])) as WatchLine['object'];
      const events = await waitFor('the watch event on the other server', async () => (watch.events.length >= 1 ? watch.events : undefined), 10_000);
      assert.deepEqual(
        events.map((event) => [event.type, event.object.metadata.name, event.object.metadata.resourceVersion]),
        [['ADDED', 'shared', viaTwo.metadata.resourceVersion]],
      );
      // An update through the second with the first's resourceVersion is the optimistic lock both share.
      await kubectl(two.kubeconfig, ['label', 'configmap', 'shared', 'by=two', `--resource-version=${viaTwo.metadata.resourceVersion}`]);
      const stale = await kubectlRaw(one.kubeconfig, [
        'label',
        'configmap',
        'shared',
        'by=one',
        '--overwrite',
        `--resource-version=${viaTwo.metadata.resourceVersion}`,
      ]);
      assert.notEqual(stale.code, 0);
      assert.match(stale.stderr, /Conflict|has been modified/);
    } finally {
      watch.child.kill();
    }
  });
});

// Service networking end to end, on real Docker and the host's iptables: a server and two agents
// (`drover agent` processes, nodes A and B) on a pod network and service range of this test's
// own (test-network.ts), web servers (busybox httpd answering with their pod name) and a client
// pod on node A that calls them by name, by short name, by cluster IP. The host calls NodePorts
// on 127.0.0.1. Every address dialled is one the cluster gave: a cluster IP, a pod IP, loopback.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeRangeRules } from '../src/agent/network/host-rules.js';
import { waitFor } from './support/wait-for.js';
import { removeNodeObjects } from './support/agent/agent-cluster.js';
import { startAgentProcess, type AgentProcess } from './support/agent-process.js';
import { kubectl, kubectlRaw, requireKubectl } from './support/kubectl.js';
import { DROVER_BIN, startServerProcess, type ServerProcess } from './support/server-process.js';
import { reserveTestNetwork, type TestNetwork } from './support/test-network.js';

const IMAGE = 'drover-test/busybox:1';
const WEB = `mkdir -p /w && hostname > /w/index.html && exec httpd -f -p 8080 -h /w`;

function webPod(name: string, labels: Record<string, string>, node: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 1,
      ...extra,
      containers: [{ name: 'web', image: IMAGE, command: ['sh', '-c', WEB], ports: [{ name: 'http', containerPort: 8080 }] }],
    },
  };
}

function service(name: string, selector: Record<string, string>, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector, ports: [{ name: 'http', port: 80, targetPort: 8080 }], ...spec } };
}

const list = (...items: object[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });

describe('service networking', { timeout: 300_000 }, () => {
  let network: TestNetwork;
  let server: ServerProcess;
  let nodeA: AgentProcess;
  let nodeB: AgentProcess;
  const names = { a: `net-a-${process.pid}`, b: `net-b-${process.pid}` };
  const k = (args: string[], input?: string) => kubectl(server.kubeconfig, args, input === undefined ? {} : { input });
  /** A shell command in the client pod (node A); its output, or the failure's. */
  const inClient = async (command: string) => {
    const result = await kubectlRaw(server.kubeconfig, ['exec', 'client', '--', 'sh', '-c', command]);
    return { ok: result.code === 0, out: result.stdout.trim(), err: result.stderr.trim() };
  };
  // busybox wget -T crashes (this static build): the timeout comes from `timeout` instead.
  const get = async (url: string) => await inClient(`timeout 5 wget -q -O - ${url}`);
  const clusterIP = async (name: string) => k(['get', 'service', name, '-o', 'jsonpath={.spec.clusterIP}']);
  const natRules = () => execFileSync('iptables-save', ['-t', 'nat'], { encoding: 'utf8' });

  before(async () => {
    requireKubectl();
    network = reserveTestNetwork();
    server = await startServerProcess({ network });
    nodeA = await startAgentProcess(server, names.a, [], undefined, { network });
    nodeB = await startAgentProcess(server, names.b, [], undefined, { network });
    await k(
      ['apply', '-f', '-'],
      list(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web' },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: {
                terminationGracePeriodSeconds: 1,
                containers: [{ name: 'web', image: IMAGE, command: ['sh', '-c', WEB], ports: [{ name: 'http', containerPort: 8080 }] }],
              },
            },
          },
        },
        // Serves like the others, but never ready: it must get no traffic.
        webPod('web-unready', { app: 'web' }, names.a, {}),
        service('web', { app: 'web' }, { type: 'NodePort' }),
        service('web-headless', { app: 'web' }, { clusterIP: 'None' }),
        webPod('backend', { app: 'backend' }, names.b, { hostname: 'backend-0', subdomain: 'backends' }),
        service('backend', { app: 'backend' }),
        service('backends', { app: 'backend' }, { clusterIP: 'None' }),
        webPod('local-a', { app: 'local' }, names.a),
        webPod('local-b', { app: 'local' }, names.b),
        service('local', { app: 'local' }, { internalTrafficPolicy: 'Local' }),
        service('sticky', { app: 'local' }, { sessionAffinity: 'ClientIP' }),
        service('nobody', { app: 'nobody' }),
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'client' },
          spec: {
            nodeName: names.a,
            terminationGracePeriodSeconds: 1,
            containers: [{ name: 'client', image: IMAGE, command: ['sh', '-c', 'trap exit TERM; while true; do sleep 1; done'] }],
          },
        },
      ),
    );
    // The unready pod: a readiness probe that always fails.
    await k(['delete', 'pod', 'web-unready', '--wait=true']);
    const unready = webPod('web-unready', { app: 'web' }, names.a);
    (unready.spec.containers[0] as Record<string, unknown>)['readinessProbe'] = { exec: { command: ['false'] }, periodSeconds: 1 };
    await k(['apply', '-f', '-'], JSON.stringify(unready));
    await k(['wait', '--for=condition=Ready', 'pod', '--all', '--field-selector', 'metadata.name!=web-unready', '--timeout=90s']);
    await waitFor('web-unready running', async () => (await k(['get', 'pod', 'web-unready', '-o', 'jsonpath={.status.phase}'])) === 'Running', 60_000);
  });

  after(async () => {
    if (server) await kubectlRaw(server.kubeconfig, ['delete', 'pytorchjobs,pods,deployments', '--all', '--grace-period=1', '--wait=true', '--timeout=30s']);
    await nodeA?.stop();
    await nodeB?.stop();
    // A stopped agent leaves its pods' containers running, as a stopped kubelet does.
    await Promise.all([removeNodeObjects(names.a), removeNodeObjects(names.b)]);
    await server?.stop();
    await server?.cleanup();
    if (network) {
      await removeRangeRules(network.serviceCidr);
      network.release();
    }
  });

  const readyWebPods = async () =>
    (await k(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[?(@.status.conditions[1].status=="True")]}{.metadata.name}{" "}{end}']))
      .trim()
      .split(' ')
      .filter(Boolean);
  const webPods = async () =>
    JSON.parse(await k(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as Array<{
      metadata: { name: string };
      status: { podIP: string; conditions?: Array<{ type: string; status: string }> };
    }>;
  const isReady = (pod: { status: { conditions?: Array<{ type: string; status: string }> } }) =>
    pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

  it('reaches the ready pods of a Service by its full name, its short name and its cluster IP, spread over them, never the unready one', async () => {
    const ready = (await webPods())
      .filter(isReady)
      .map((p) => p.metadata.name)
      .sort();
    assert.equal(ready.length, 2);
    const ip = await clusterIP('web');
    for (const url of ['http://web.default.svc.cluster.local/', 'http://web/', `http://${ip}/`]) {
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const answer = await get(url);
        assert.ok(answer.ok, `${url}: ${answer.err}`);
        seen.add(answer.out);
      }
      assert.deepEqual([...seen].sort(), ready, `${url} reached exactly the ready pods`);
    }
    void readyWebPods;
  });

  it('answers a headless Service with every ready pod IP, and a pod by its hostname and subdomain', async () => {
    const ready = (await webPods())
      .filter(isReady)
      .map((p) => p.status.podIP)
      .sort();
    const lookup = await inClient('nslookup web-headless.default.svc.cluster.local');
    assert.ok(lookup.ok, lookup.err);
    const ips = [...lookup.out.matchAll(/Address: (\d+\.\d+\.\d+\.\d+)/g)].map((m) => m[1]!).filter((ip) => ready.includes(ip) || !ip.endsWith('.10'));
    assert.deepEqual([...new Set(ips.filter((ip) => ip !== lookup.out.match(/Server:\s+(\S+)/)?.[1]))].sort(), ready);
    const backendIP = await k(['get', 'pod', 'backend', '-o', 'jsonpath={.status.podIP}']);
    const byHostname = await inClient('nslookup backend-0.backends.default.svc.cluster.local');
    assert.match(byHostname.out, new RegExp(`Address: ${backendIP.replace(/\./g, '\\.')}`));
    const unknown = await inClient('nslookup nothing-here.default.svc.cluster.local');
    assert.equal(unknown.ok, false);
    assert.match(unknown.out + unknown.err, /NXDOMAIN|can't find/);
  });

  it("resolves a training job's per-replica Services to their replicas", async () => {
    const replica = {
      replicas: 1,
      restartPolicy: 'Never',
      template: {
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'pytorch', image: IMAGE, command: ['sh', '-c', 'trap exit TERM; while true; do sleep 1; done'] }],
        },
      },
    };
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'kubeflow.org/v1',
        kind: 'PyTorchJob',
        metadata: { name: 'dnsjob' },
        spec: { pytorchReplicaSpecs: { Master: replica, Worker: replica } },
      }),
    );
    for (const name of ['dnsjob-master-0', 'dnsjob-worker-0']) {
      await k(['wait', '--for=condition=Ready', `pod/${name}`, '--timeout=60s']);
      const ip = await k(['get', 'pod', name, '-o', 'jsonpath={.status.podIP}']);
      await waitFor(
        `${name} in the cluster DNS`,
        async () => (await inClient(`nslookup ${name}.default.svc.cluster.local`)).out.includes(`Address: ${ip}`),
        10_000,
      );
    }
    await k(['delete', 'pytorchjob', 'dnsjob', '--wait=false']);
  });

  it('lets a pod on node A reach a pod on node B by name and at its pod IP', async () => {
    const backendIP = await k(['get', 'pod', 'backend', '-o', 'jsonpath={.status.podIP}']);
    assert.equal((await get('http://backend/')).out, 'backend-0');
    assert.equal((await get('http://backend-0.backends.default.svc.cluster.local:8080/')).out, 'backend-0');
    assert.equal((await get(`http://${backendIP}:8080/`)).out, 'backend-0');
  });

  it('answers a NodePort on 127.0.0.1 from the host, and the cluster IP from the host', async () => {
    const nodePort = await k(['get', 'service', 'web', '-o', 'jsonpath={.spec.ports[0].nodePort}']);
    const ready = (await webPods()).filter(isReady).map((p) => p.metadata.name);
    const viaNodePort = await (await fetch(`http://127.0.0.1:${nodePort}/`)).text();
    assert.ok(ready.includes(viaNodePort.trim()), viaNodePort);
    const viaClusterIP = await (await fetch(`http://${await clusterIP('web')}/`)).text();
    assert.ok(ready.includes(viaClusterIP.trim()), viaClusterIP);
  });

  it('keeps internalTrafficPolicy: Local traffic on the node, and a ClientIP-affine client on one pod', async () => {
    for (let i = 0; i < 10; i++) assert.equal((await get('http://local/')).out, 'local-a');
    const first = (await get('http://sticky/')).out;
    assert.match(first, /^local-[ab]$/);
    for (let i = 0; i < 10; i++) assert.equal((await get('http://sticky/')).out, first);
  });

  it('rejects a Service without endpoints at once', async () => {
    const ip = await clusterIP('nobody');
    const started = Date.now();
    const answer = await inClient(`nc -w 3 ${ip} 80 </dev/null; echo exit=$?`);
    assert.match(answer.out, /exit=1/);
    assert.ok(Date.now() - started < 2500, `failed after ${Date.now() - started} ms`);
  });

  it("gives pods the cluster DNS, search domains and the Services' variables", async () => {
    const resolv = await inClient('cat /etc/resolv.conf');
    assert.match(resolv.out, new RegExp(`nameserver ${network.clusterDns.replace(/\./g, '\\.')}`));
    assert.match(resolv.out, /search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local/);
    assert.match(resolv.out, /options ndots:5/);
    const env = await inClient('env');
    assert.match(env.out, new RegExp(`WEB_SERVICE_HOST=${(await clusterIP('web')).replace(/\./g, '\\.')}`));
    assert.match(env.out, new RegExp(`KUBERNETES_SERVICE_HOST=${(await clusterIP('kubernetes')).replace(/\./g, '\\.')}`));
  });

  it('reaches the API server through the kubernetes Service', async () => {
    const answer = await inClient('echo | nc -w 3 kubernetes.default.svc 443 >/dev/null; echo exit=$?');
    assert.match(answer.out, /exit=0/, answer.err);
  });

  it('lets @kubernetes/client-node inside a pod find and authenticate to the API with loadFromCluster', async () => {
    // The host's node and libraries, and this checkout's node_modules, mounted into a busybox pod.
    const program = [
      "import { AuthenticationV1Api, KubeConfig } from '@kubernetes/client-node';",
      'const config = new KubeConfig();',
      'config.loadFromCluster();',
      "const review = await config.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });",
      "console.log('server ' + config.getCurrentCluster().server + ' user ' + review.status.userInfo.username);",
    ].join('\n');
    const host = (name: string, path: string, mountPath = path) => ({ volume: { name, hostPath: { path } }, mount: { name, mountPath, readOnly: true } });
    const mounts = [
      host('node', process.execPath, '/usr/local/bin/node'),
      host('libs', '/lib/x86_64-linux-gnu'),
      host('loader', '/lib64'),
      host('modules', resolve(import.meta.dirname, '../../node_modules'), '/app/node_modules'),
    ];
    await k(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'in-cluster' },
        spec: {
          nodeName: names.b,
          restartPolicy: 'Never',
          volumes: mounts.map((m) => m.volume),
          containers: [
            {
              name: 'client',
              image: IMAGE,
              workingDir: '/app',
              command: ['/usr/local/bin/node', '--input-type=module', '-e', program],
              volumeMounts: mounts.map((m) => m.mount),
            },
          ],
        },
      }),
    );
    await waitFor(
      'the in-cluster client done',
      async () => ['Succeeded', 'Failed'].includes(await k(['get', 'pod', 'in-cluster', '-o', 'jsonpath={.status.phase}'])),
      60_000,
    );
    const logs = await k(['logs', 'in-cluster']);
    assert.equal(logs.trim(), `server https://${await clusterIP('kubernetes')}:443 user system:serviceaccount:default:default`);
  });

  it("removes a deleted Service's rules, and rebuilds every rule after an agent restart with nothing stale left", async () => {
    await k(['apply', '-f', '-'], JSON.stringify(service('doomed', { app: 'web' })));
    await waitFor('rules for default/doomed', async () => natRules().includes('default/doomed:http'), 5000);
    await k(['delete', 'service', 'doomed']);
    await waitFor('no rule for default/doomed', async () => !natRules().includes('default/doomed:http'), 3000);

    // While node A's agent is down a Service goes and one comes: its restart must catch up.
    await k(['apply', '-f', '-'], JSON.stringify(service('gone-while-down', { app: 'web' })));
    await waitFor('rules for gone-while-down', async () => natRules().includes('default/gone-while-down:http'), 5000);
    await nodeA.kill();
    await k(['delete', 'service', 'gone-while-down']);
    await k(['apply', '-f', '-'], JSON.stringify(service('made-while-down', { app: 'backend' })));
    nodeA = await startAgentProcess(server, names.a, [], undefined, { network, dataDir: nodeA.dataDir });
    await waitFor('made-while-down reachable from node A', async () => (await get('http://made-while-down/')).out === 'backend-0', 15_000);
    assert.equal(natRules().includes('default/gone-while-down:http'), false, 'nothing stale after the restart');
  });

  it("refuses a second cluster's agent on the same service range while this cluster's agents run", async () => {
    const other = await startServerProcess({ network });
    try {
      await assert.rejects(
        startAgentProcess(other, `net-other-${process.pid}`, [], undefined, { network }),
        /the service range \S+ is in use on this machine by another cluster's agent/,
      );
      assert.ok(natRules().includes('default/web:http'), "this cluster's rules untouched");
      assert.equal((await get('http://web/')).ok, true);
    } finally {
      await other.stop();
      await other.cleanup();
    }
  });

  it('keeps the rules when the agents stop, and removes them all when they leave for good (drover agent --cleanup)', async () => {
    const ip = await clusterIP('web');
    await nodeA.stop();
    await nodeB.stop();
    assert.ok(natRules().includes('default/web:http'), 'a stopped agent leaves its pods their traffic');
    const cleanup = execFileSync(process.execPath, [DROVER_BIN, 'agent', '--cleanup', ...network.flags()], { encoding: 'utf8' });
    assert.match(cleanup, /removed the service rules of 2 agent\(s\)/);
    assert.equal(natRules().includes(network.serviceCidr), false, 'no rule left for the range');
    assert.doesNotMatch(
      execFileSync('ip', ['-4', '-o', 'route', 'show'], { encoding: 'utf8' }),
      new RegExp(`^${ip.replace(/\./g, '\\.')} `, 'm'),
      'no route left for the cluster IP',
    );
  });
});

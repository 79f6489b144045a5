// The data checker end to end. With a real agent on Docker: a container made by hand through
// Docker for a pod the API never had is found (asked of the agent at the streaming address its
// Node publishes) and, with --repair, removed through the agent. With `drover server` as a
// process: `drover check [--repair]` prints the report and sets its exit code, kubectl lists
// the reports, and /metrics counts the findings.
import { fetchWithTls } from './support/client/raw-request.js';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ownerLabels } from '../src/agent/agent-labels.js';
import { readClusterId } from '../src/agent/cluster-id.js';
import { CONTAINER_NAME, podLabels } from '../src/agent/runtime/labels.js';
import { ensureDocker } from './support/agent/agent-cluster.js';
import { findingLines, startCheckerBed, type CheckerBed } from './support/checker/checker-bed.js';
import { startNode, type RunningNode } from '../src/cluster/node.js';
import { silentLogger } from '../src/client/index.js';
import { kubectlRaw, requireKubectl } from './support/kubectl.js';
import { spawnDrover, startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait-for.js';

function docker(...args: string[]): string {
  return execFileSync('docker', args, { encoding: 'utf8' }).trim();
}

describe('data check: containers of pods the API does not have', () => {
  let bed: CheckerBed;
  let node: RunningNode;
  let dir: string;
  const nodeName = `checker-${randomUUID().slice(0, 8)}`;
  const uid = randomUUID();

  before(async () => {
    ensureDocker();
    dir = await mkdtemp(join(tmpdir(), 'drover-check-'));
    bed = await startCheckerBed();
    // The agent cleans up unknown pods at start and every 30 s after: the orphan made right
    // after it started is there for the rounds below to find.
    node = await startNode({ api: bed.api, nodeName, dataDir: dir, logger: silentLogger, serviceProxy: false });
    const labels = {
      ...podLabels({ uid, name: 'ghost', namespace: 'default' }, 'container', 0),
      [CONTAINER_NAME]: 'app',
      ...ownerLabels({ clusterId: await readClusterId(bed.api), nodeName }),
    };
    docker(
      'run',
      '-d',
      '--name',
      `drover-check-orphan-${uid.slice(0, 8)}`,
      ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
      'drover-test/busybox:1',
      'sleep',
      '300',
    );
  });

  after(async () => {
    await node?.close();
    await bed?.close();
    execFileSync('docker', ['rm', '-f', `drover-check-orphan-${uid.slice(0, 8)}`], { stdio: 'ignore' });
    await rm(dir, { recursive: true, force: true });
  });

  it('is found, and removed through the agent with --repair', async () => {
    const found = await bed.round(false);
    assert.deepEqual(findingLines(found), [`OrphanContainer ${nodeName} NotRepaired`]);
    assert.ok(docker('ps', '-q', '--filter', `label=drover.dev/pod-uid=${uid}`), 'without --repair the container stays');

    const repaired = await bed.round(true);
    assert.deepEqual(findingLines(repaired), [`OrphanContainer ${nodeName} Repaired`]);
    await waitFor(
      'the orphan container removed',
      async () => (docker('ps', '-aq', '--filter', `label=drover.dev/pod-uid=${uid}`) === '' ? true : undefined),
      20_000,
    );
  });
});

describe('data check: drover check and kubectl', () => {
  let server: ServerProcess;

  before(async () => {
    requireKubectl();
    server = await startServerProcess({ extraArgs: ['--data-check-interval', '0'] });
  });

  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });

  async function drover(...args: string[]): Promise<{ code: number | null; output: string }> {
    const child = spawnDrover([...args, '--kubeconfig', server.kubeconfig]);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, output };
  }

  it('reports a pod bound to a missing node, repairs it with --repair, and counts it', async () => {
    const pod = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stranded' },
      spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'drover-test/busybox:1' }] },
    });
    assert.equal((await kubectlRaw(server.kubeconfig, ['create', '-f', '-'], { input: pod })).code, 0);

    const first = await drover('check');
    assert.equal(first.code, 1, first.output);
    assert.match(first.output, /Completed, 1 finding\(s\), 0 repaired/);
    assert.match(first.output, /PodOnMissingNode\s+Pod\/default\/stranded\s+NotRepaired\s+pod default\/stranded is bound to node no-such-node/);

    const second = await drover('check', '--repair');
    assert.equal(second.code, 0, second.output);
    assert.match(second.output, /PodOnMissingNode\s+Pod\/default\/stranded\s+Repaired/);
    assert.notEqual((await kubectlRaw(server.kubeconfig, ['get', 'pod', 'stranded'])).code, 0, 'the pod is gone');

    const table = await kubectlRaw(server.kubeconfig, ['get', 'consistencyreports']);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split('\n');
    assert.match(lines[0]!, /^NAME\s+PHASE\s+FINDINGS\s+REPAIRED\s+AGE$/);
    assert.equal(lines.length, 3, table.stdout);
    assert.ok(
      lines.slice(1).some((line) => /^check-\S+\s+Completed\s+1\s+1\s+/.test(line)),
      table.stdout,
    );

    const metrics = await (await fetchWithTls(`${server.url}/metrics`, server.tls)).text();
    assert.match(metrics, /drover_data_check_findings_total\{kind="PodOnMissingNode"\} 2/);
    assert.match(metrics, /drover_data_check_repairs_total\{kind="PodOnMissingNode",result="Repaired"\} 1/);
  });
});

// kubectl's read paths: tables (plain and wide), output formats, selectors, watch, describe,
// explain and api-resources.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { KUBECTL, kubectlArgs } from './support/kubectl.js';
import { useCluster } from './support/cluster-fixture.js';
import { deploymentYaml } from './fixtures/deployment.js';
import { waitFor } from './support/wait-for.js';

// The API alone: no controllers turn the fixture Deployment into pods the listings would show.
const cluster = useCluster({ extraArgs: ['--no-control-plane'] });

function pod(name: string, labels: Record<string, string>, nodeName?: string) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'main', image: 'drover-test/busybox:1', command: ['sleep', '60'] }] },
  };
}

describe('kubectl get', () => {
  before(async () => {
    await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml() });
    for (const [name, tier, node] of [
      ['a', 'web', 'n1'],
      ['b', 'web', 'n2'],
      ['c', 'db', 'n1'],
    ] as const) {
      await cluster.kubectl(['apply', '-f', '-'], { input: JSON.stringify(pod(name, { tier }, node)) });
    }
  });

  it('prints server-side tables with the usual columns', async () => {
    const pods = await cluster.kubectl(['get', 'pods']);
    assert.match(pods.split('\n')[0]!, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    assert.match(pods, /^a\s+0\/1\s+Pending\s+0\s+\d+s$/m);
    const wide = await cluster.kubectl(['get', 'pods', '-o', 'wide']);
    assert.match(wide.split('\n')[0]!, /NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES/);
    assert.match(wide, /^c\s+.*\s+n1\s+/m);
    const deployments = await cluster.kubectl(['get', 'deploy']);
    assert.match(deployments.split('\n')[0]!, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/);
    assert.match(await cluster.kubectl(['get', 'ns']), /^kube-system\s+Active/m);
  });

  it('prints yaml, json and jsonpath', async () => {
    assert.match(await cluster.kubectl(['get', 'deploy/web', '-o', 'yaml']), /^kind: Deployment$/m);
    const json = JSON.parse(await cluster.kubectl(['get', 'pods', '-o', 'json']));
    assert.equal(json.kind, 'List');
    assert.deepEqual(json.items.map((p: { metadata: { name: string } }) => p.metadata.name).sort(), ['a', 'b', 'c']);
    assert.equal(await cluster.kubectl(['get', 'pod/a', '-o', 'jsonpath={.spec.nodeName}']), 'n1');
  });

  it('filters by label and field selectors', async () => {
    const byLabel = await cluster.kubectl(['get', 'pods', '-l', 'tier=web', '-o', 'name']);
    assert.deepEqual(byLabel.trim().split('\n').sort(), ['pod/a', 'pod/b']);
    const byNotIn = await cluster.kubectl(['get', 'pods', '-l', 'tier notin (web)', '-o', 'name']);
    assert.equal(byNotIn.trim(), 'pod/c');
    const byField = await cluster.kubectl(['get', 'pods', '--field-selector', 'spec.nodeName=n1,metadata.name!=a', '-o', 'name']);
    assert.equal(byField.trim(), 'pod/c');
    const bad = await cluster.kubectlRaw(['get', 'pods', '--field-selector', 'spec.bogus=x']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /field label not supported: spec.bogus/);
  });

  it('pages through lists with --chunk-size', async () => {
    const names = await cluster.kubectl(['get', 'pods', '--chunk-size=1', '-o', 'name']);
    assert.equal(names.trim().split('\n').length, 3);
  });

  it('watches with -w and prints each change', async () => {
    const watcher = spawn(KUBECTL, kubectlArgs(cluster.server().kubeconfig, ['get', 'deploy', '-w']));
    let output = '';
    watcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitFor('the initial listing', async () => output.includes('web'), 10_000);
      await cluster.kubectl(['scale', 'deploy/web', '--replicas=9']);
      await waitFor('the scaled row', async () => /web\s+0\/9/.test(output), 10_000);
    } finally {
      watcher.kill();
    }
  });
});

describe('kubectl describe, explain, api-resources', () => {
  it('describes a deployment', async () => {
    const text = await cluster.kubectl(['describe', 'deploy/web']);
    assert.match(text, /^Name:\s+web$/m);
    assert.match(text, /^Selector:\s+app=web$/m);
    assert.match(text, /RollingUpdateStrategy:\s+25% max unavailable, 25% max surge/);
  });

  it('explains fields from the OpenAPI document', async () => {
    const text = await cluster.kubectl(['explain', 'deployment.spec.replicas']);
    assert.match(text, /FIELD:\s+replicas <integer>/);
    assert.match(text, /DESCRIPTION:/);
    const pods = await cluster.kubectl(['explain', 'pod.spec.containers.image']);
    assert.match(pods, /image <string>/);
  });

  it('lists resources with short names and the all category', async () => {
    const text = await cluster.kubectl(['api-resources']);
    for (const line of [
      /^pods\s+po\s+v1\s+true\s+Pod$/m,
      /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m,
      /^leases\s+coordination.k8s.io\/v1\s+true\s+Lease$/m,
    ]) {
      assert.match(text, line);
    }
    const all = await cluster.kubectl(['get', 'all', '-o', 'name']);
    assert.match(all, /pod\/a/);
    assert.match(all, /deployment.apps\/web/);
    assert.match(await cluster.kubectl(['get', 'po,deploy', '-o', 'name']), /pod\/b/);
  });

  it('answers kubectl auth can-i and whoami for the admin of the kubeconfig (system:masters)', async () => {
    // kubectl sends these reviews as protobuf; the server answers in status and stores nothing.
    assert.equal((await cluster.kubectl(['auth', 'can-i', 'delete', 'nodes'])).trim(), 'yes');
    assert.equal((await cluster.kubectl(['auth', 'can-i', 'get', '/healthz'])).trim(), 'yes');
    assert.match(await cluster.kubectl(['auth', 'can-i', '--list']), /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
    assert.match(await cluster.kubectl(['auth', 'whoami']), /^Username\s+drover-admin$/m);
    assert.match(await cluster.kubectl(['api-resources']), /^selfsubjectaccessreviews\s+authorization.k8s.io\/v1\s+false\s+SelfSubjectAccessReview$/m);
  });
});

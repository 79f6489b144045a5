// kubectl's write paths against a real Drover server: client-side and server-side apply,
// the three patch types, scale, label, annotate and edit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useCluster } from './support/cluster-fixture.js';
import { deploymentYaml } from './fixtures/deployment.js';

const cluster = useCluster();

async function jsonpath(resource: string, path: string): Promise<string> {
  return cluster.kubectl(['get', resource, '-o', `jsonpath=${path}`]);
}

describe('kubectl apply (client-side)', () => {
  it('creates, changes and re-applies a Deployment', async () => {
    assert.match(await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml() }), /deployment.apps\/web created/);
    assert.equal(await jsonpath('deploy/web', '{.metadata.generation}'), '1');
    assert.match(await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml({ image: 'drover-test/busybox:2', replicas: 3 }) }), /configured/);
    assert.equal(
      await jsonpath('deploy/web', '{.spec.template.spec.containers[0].image} {.spec.replicas} {.metadata.generation}'),
      'drover-test/busybox:2 3 2',
    );
    // The sidecar container is untouched by the merge.
    assert.equal(await jsonpath('deploy/web', '{.spec.template.spec.containers[1].name}'), 'sidecar');
    assert.match(await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml({ image: 'drover-test/busybox:2', replicas: 3 }) }), /unchanged/);
    assert.equal(await jsonpath('deploy/web', '{.metadata.generation}'), '2');
  });

  it('removes a container that left the manifest', async () => {
    const single = deploymentYaml({ name: 'single' }).replace(/      - name: sidecar[\s\S]*$/, '');
    await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml({ name: 'single' }) });
    await cluster.kubectl(['apply', '-f', '-'], { input: single });
    assert.equal(await jsonpath('deploy/single', '{.spec.template.spec.containers[*].name}'), 'web');
  });
});

describe('kubectl apply --server-side', () => {
  it('creates with managedFields, reports conflicts, and takes ownership with --force-conflicts', async () => {
    const manifest = deploymentYaml({ name: 'ssa', replicas: 2 });
    assert.match(await cluster.kubectl(['apply', '--server-side', '-f', '-'], { input: manifest }), /serverside-applied/);
    const managers = JSON.parse(await cluster.kubectl(['get', 'deploy/ssa', '-o', 'json', '--show-managed-fields'])).metadata.managedFields;
    assert.equal(managers[0].manager, 'kubectl');
    assert.equal(managers[0].operation, 'Apply');
    assert.ok(managers[0].fieldsV1['f:spec']['f:replicas']);

    await cluster.kubectl(['scale', 'deploy/ssa', '--replicas=5']);
    const conflict = await cluster.kubectlRaw(['apply', '--server-side', '-f', '-'], { input: manifest });
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /conflict/i);
    assert.match(conflict.stderr, /\.spec\.replicas/);
    assert.equal(await jsonpath('deploy/ssa', '{.spec.replicas}'), '5');

    await cluster.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], { input: manifest });
    assert.equal(await jsonpath('deploy/ssa', '{.spec.replicas}'), '2');
  });
});

describe('kubectl patch, scale, label, annotate, edit', () => {
  it('applies strategic, merge and JSON patches', async () => {
    await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml({ name: 'patched' }) });
    await cluster.kubectl(['patch', 'deploy/patched', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"drover-test/busybox:2"}]}}}}']);
    assert.equal(await jsonpath('deploy/patched', '{.spec.template.spec.containers[*].image}'), 'drover-test/busybox:2 drover-test/busybox:1');
    await cluster.kubectl(['patch', 'deploy/patched', '--type=merge', '-p', '{"spec":{"paused":true}}']);
    await cluster.kubectl(['patch', 'deploy/patched', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4}]']);
    assert.equal(await jsonpath('deploy/patched', '{.spec.paused} {.spec.replicas}'), 'true 4');
    const failed = await cluster.kubectlRaw(['patch', 'deploy/patched', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":9}]']);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /test/);
  });

  it('scales through the scale subresource and labels and annotates', async () => {
    await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml({ name: 'scaled' }) });
    assert.match(await cluster.kubectl(['scale', 'deploy/scaled', '--replicas=6']), /scaled/);
    assert.equal(await jsonpath('deploy/scaled', '{.spec.replicas}'), '6');
    const scale = await cluster.api('GET', '/apis/apps/v1/namespaces/default/deployments/scaled/scale');
    assert.equal(scale.body.kind, 'Scale');
    assert.equal(scale.body.spec.replicas, 6);
    assert.equal(scale.body.status.selector, 'app=scaled');
    const generation = await jsonpath('deploy/scaled', '{.metadata.generation}');
    await cluster.kubectl(['label', 'deploy/scaled', 'tier=frontend']);
    assert.equal(await jsonpath('deploy/scaled', '{.metadata.generation}'), generation, 'metadata changes do not bump generation');
    await cluster.kubectl(['annotate', 'deploy/scaled', 'team=core']);
    assert.equal(await jsonpath('deploy/scaled', '{.metadata.labels.tier} {.metadata.annotations.team}'), 'frontend core');
    await cluster.kubectl(['label', 'deploy/scaled', 'tier-']);
    assert.equal(await jsonpath('deploy/scaled', '{.metadata.labels.tier}'), '');
    const refused = await cluster.kubectlRaw(['scale', 'deploy/scaled', '--replicas=-1']);
    assert.notEqual(refused.code, 0);
  });

  it('edits with KUBE_EDITOR', async () => {
    await cluster.kubectl(['apply', '-f', '-'], { input: deploymentYaml({ name: 'edited' }) });
    const dir = await mkdtemp(join(tmpdir(), 'drover-editor-'));
    const editor = join(dir, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nsed -i "s/replicas: 2/replicas: 7/" "$1"\n');
    await chmod(editor, 0o755);
    assert.match(await cluster.kubectl(['edit', 'deploy/edited'], { env: { KUBE_EDITOR: editor } }), /edited/);
    assert.equal(await jsonpath('deploy/edited', '{.spec.replicas}'), '7');
  });
});

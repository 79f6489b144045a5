// CustomResourceDefinitions end to end with the real kubectl against `drover server`: a CRD as
// an operator ships one is applied and established, its custom resources are served in both
// versions with their printer columns, schema (explain, validation, pruning, defaults), scale and
// status subresources, CEL rules, watches, discovery and RBAC; deleting the CRD deletes them all.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useCluster } from './support/cluster-fixture.js';
import { KUBECTL, kubectlArgs } from './support/kubectl.js';
import { WIDGET_CRD, widgetYaml } from './fixtures/widget-crd.js';
import { waitFor } from './support/wait-for.js';

const cluster = useCluster({ extraArgs: ['--no-control-plane'] });
const k = (args: string[], input?: string) => cluster.kubectl(args, input === undefined ? {} : { input });
const jsonpath = (resource: string, path: string) => k(['get', resource, '-o', `jsonpath=${path}`]);

describe('CustomResourceDefinitions with kubectl', () => {
  it('kubectl apply -f crd.yaml, then wait --for condition=established; api-resources and get crd show it', async () => {
    assert.match(await k(['apply', '-f', '-'], WIDGET_CRD), /customresourcedefinition.apiextensions.k8s.io\/widgets.shop.example.com created/);
    await k(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.shop.example.com']);
    const cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    const resources = await k(['api-resources', '--api-group=shop.example.com', '--cache-dir', cacheDir]);
    assert.match(resources, /^widgets\s+wd\s+shop\.example\.com\/v1\s+true\s+Widget$/m);
    const [header, row] = (await k(['get', 'crd', 'widgets.shop.example.com'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'CREATED AT']);
    assert.match(row!, /^widgets\.shop\.example\.com\s+\d{4}-\d\d-\d\dT/);
    assert.equal(await jsonpath('crd/widgets.shop.example.com', '{.status.acceptedNames.kind} {.status.storedVersions}'), 'Widget ["v1"]');
  });

  it('an instance gets its defaults; kubectl get <short name> shows the printer columns, -o wide the priority ones', async () => {
    await k(['apply', '-f', '-'], widgetYaml('alpha', 'image: busybox:1\nport: http'));
    assert.equal(await jsonpath('widget/alpha', '{.spec.replicas} {.spec.size} {.spec.port}'), '1 medium http');
    const [header, row] = (await k(['get', 'wd'])).trim().split('\n');
    assert.deepEqual(header!.split(/\s{2,}/), ['NAME', 'REPLICAS', 'SIZE', 'READY', 'AGE']);
    assert.deepEqual(row!.split(/\s+/).slice(0, 3), ['alpha', '1', 'medium']);
    assert.match((await k(['get', 'wd', '-o', 'wide'])).split('\n')[0]!, /IMAGE/);
    assert.match(await k(['get', 'all']), /widget\.shop\.example\.com\/alpha/);
    // Applied again with a change, kubectl sends a JSON merge patch (the schema offers no strategic one).
    assert.match(await k(['apply', '-f', '-'], widgetYaml('alpha', 'image: busybox:1\nport: http\nsize: large')), /widget.shop.example.com\/alpha configured/);
    assert.equal(await jsonpath('widget/alpha', '{.spec.size} {.spec.replicas}'), 'large 1');
  });

  it('kubectl explain reads the schema from OpenAPI v3', async () => {
    const size = await k(['explain', 'widget.spec.size']);
    assert.match(size, /FIELD: size <string>/);
    assert.match(size, /ENUM:\s+small\s+medium\s+large/);
    assert.match(await k(['explain', 'widgets.spec.image']), /The image the widget runs\./);
    assert.match(await k(['explain', 'widget.spec', '--output=plaintext-openapiv2']), /image\s+<string> -required-/);
  });

  it('an invalid instance is refused with the fields named; unknown fields are pruned, or refused by strict validation', async () => {
    const bad = await cluster.kubectlRaw(['apply', '-f', '-'], { input: widgetYaml('bad', 'image: NOT VALID\nreplicas: 99\nsize: huge') });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /The Widget "bad" is invalid/);
    assert.match(bad.stderr, /spec\.size: Unsupported value: "huge": supported values: "small", "medium", "large"/);
    assert.match(bad.stderr, /spec\.replicas: Invalid value: 99: spec\.replicas in body should be less than or equal to 50/);
    assert.match(bad.stderr, /spec\.image: Invalid value: "NOT VALID": spec\.image in body should match/);
    const missing = await cluster.kubectlRaw(['apply', '-f', '-'], { input: widgetYaml('missing', 'size: small') });
    assert.match(missing.stderr, /spec\.image: Required value/);
    const rule = await cluster.kubectlRaw(['apply', '-f', '-'], { input: widgetYaml('rule', 'image: busybox:1\nsize: small\nreplicas: 5') });
    assert.match(rule.stderr, /spec: Invalid value: "object": a small widget has at most 3 replicas/);
    const transition = await cluster.kubectlRaw(['patch', 'widget/alpha', '--type=merge', '-p', '{"spec":{"image":"busybox:2"}}']);
    assert.match(transition.stderr, /spec\.image: Invalid value: "object": image is immutable/);

    const extra = widgetYaml('extra', 'image: busybox:1\nbogus: 1\nextra:\n  kept: [1, 2]');
    const strict = await cluster.kubectlRaw(['apply', '-f', '-'], { input: extra });
    assert.match(strict.stderr, /unknown field "spec\.bogus"/);
    // A `kind: List` is validated by kubectl itself, against OpenAPI v2.
    const listed = await cluster.kubectlRaw(['apply', '-f', '-'], {
      input: `apiVersion: v1\nkind: List\nitems:\n- ${widgetYaml('extra', 'image: busybox:1\nbogus: 1').trimEnd().replace(/\n/g, '\n  ')}\n`,
    });
    assert.match(listed.stderr, /unknown field "bogus"/);
    await k(['apply', '--validate=false', '-f', '-'], extra);
    assert.equal(await jsonpath('widget/extra', '{.spec.bogus}|{.spec.extra.kept}'), '|[1,2]');
  });

  it('objects written in v1beta1 are stored in v1 and read in either version; the deprecated version warns', async () => {
    const created = await cluster.kubectlRaw(['apply', '-f', '-'], { input: widgetYaml('old', 'image: busybox:1', 'v1beta1') });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /shop\.example\.com\/v1beta1 Widget is deprecated/);
    assert.equal(await jsonpath('widgets.v1.shop.example.com/old', '{.apiVersion}'), 'shop.example.com/v1');
    assert.equal(await jsonpath('widgets.v1beta1.shop.example.com/old', '{.apiVersion}'), 'shop.example.com/v1beta1');
    // Read in v1beta1 and replaced (PUT) as such, it stays stored in v1.
    const read = JSON.parse(await k(['get', 'widgets.v1beta1.shop.example.com/old', '-o', 'json']));
    read.spec.size = 'large';
    await k(['replace', '-f', '-'], JSON.stringify(read));
    assert.equal(await jsonpath('widgets.v1.shop.example.com/old', '{.apiVersion} {.spec.size}'), 'shop.example.com/v1 large');
  });

  it('kubectl scale writes spec.replicas through /scale; /status takes status only, and only spec changes bump generation', async () => {
    await k(['apply', '-f', '-'], widgetYaml('scaled', 'image: busybox:1\nselector: app=scaled'));
    await k(['scale', 'widget/scaled', '--replicas=4']);
    assert.equal(await jsonpath('widget/scaled', '{.spec.replicas} {.metadata.generation}'), '4 2');
    const scale = await cluster.api('GET', '/apis/shop.example.com/v1/namespaces/default/widgets/scaled/scale');
    assert.equal(scale.body.kind, 'Scale');
    assert.deepEqual(scale.body.status, { replicas: 0, selector: 'app=scaled' });
    await k(['patch', 'widget/scaled', '--subresource=status', '--type=merge', '-p', '{"status":{"readyReplicas":4},"spec":{"replicas":9}}']);
    assert.equal(await jsonpath('widget/scaled', '{.spec.replicas} {.status.readyReplicas} {.metadata.generation}'), '4 4 2');
    await k(['patch', 'widget/scaled', '--type=merge', '-p', '{"status":{"readyReplicas":0},"spec":{"size":"large"}}']);
    assert.equal(await jsonpath('widget/scaled', '{.spec.size} {.status.readyReplicas} {.metadata.generation}'), 'large 4 3');
    assert.match((await k(['get', 'wd', 'scaled'])).split('\n')[1]!, /^scaled\s+4\s+large\s+4\s/);
  });

  it('merge and JSON patches apply; a strategic merge patch is 415 as in Kubernetes; server-side apply merges a set', async () => {
    await k(['patch', 'widget/alpha', '--type=json', '-p', '[{"op":"replace","path":"/spec/size","value":"small"}]']);
    assert.equal(await jsonpath('widget/alpha', '{.spec.size}'), 'small');
    const strategic = await cluster.api(
      'PATCH',
      '/apis/shop.example.com/v1/namespaces/default/widgets/alpha',
      { spec: { size: 'large' } },
      'application/strategic-merge-patch+json',
    );
    assert.equal(strategic.status, 415);
    await k(['apply', '--server-side', '--field-manager=one', '-f', '-'], widgetYaml('applied', 'image: busybox:1\nlabels: [a, b]'));
    await k(['apply', '--server-side', '--field-manager=two', '-f', '-'], widgetYaml('applied', 'image: busybox:1\nlabels: [c]'));
    assert.equal(await jsonpath('widget/applied', '{.spec.labels}'), '["a","b","c"]');
  });

  it('label and field selectors, paging and delete --all (deletecollection)', async () => {
    await k(['label', 'widget/alpha', 'tier=gold']);
    assert.equal((await k(['get', 'wd', '-l', 'tier=gold', '-o', 'name'])).trim(), 'widget.shop.example.com/alpha');
    assert.equal((await k(['get', 'wd', '--field-selector', 'metadata.name=old', '-o', 'name'])).trim(), 'widget.shop.example.com/old');
    const paged = await cluster.api('GET', '/apis/shop.example.com/v1/namespaces/default/widgets?limit=2');
    assert.equal(paged.body.items.length, 2);
    assert.ok(paged.body.metadata.continue);
    const rest = await cluster.api('GET', `/apis/shop.example.com/v1/namespaces/default/widgets?limit=100&continue=${paged.body.metadata.continue}`);
    assert.ok(rest.body.items.length >= 3);
    await k(['create', 'namespace', 'sweep']);
    await k(['apply', '-n', 'sweep', '-f', '-'], widgetYaml('one', 'image: busybox:1') + '---\n' + widgetYaml('two', 'image: busybox:1'));
    await k(['delete', 'wd', '--all', '-n', 'sweep']);
    assert.equal((await k(['get', 'wd', '-n', 'sweep', '-o', 'name'])).trim(), '');
  });

  it('kubectl get --watch sees a custom resource added, changed and deleted', async () => {
    // Without --watch-only kubectl lists first and watches from the list's resourceVersion, so
    // nothing made after the listed objects show can be missed.
    const watcher = spawn(
      KUBECTL,
      kubectlArgs(cluster.server().kubeconfig, [
        'get',
        'wd',
        '--watch',
        '--output-watch-events',
        '-o',
        'custom-columns=EVENT:.type,NAME:.object.metadata.name,SIZE:.object.spec.size',
      ]),
    );
    let seen = '';
    watcher.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    try {
      await waitFor('the listed widgets', async () => /ADDED\s+alpha/.test(seen), 20_000);
      await k(['apply', '-f', '-'], widgetYaml('watched', 'image: busybox:1'));
      await k(['patch', 'widget/watched', '--type=merge', '-p', '{"spec":{"size":"large"}}']);
      await k(['delete', 'widget/watched']);
      await waitFor(
        'ADDED, MODIFIED and DELETED events',
        async () => /ADDED\s+watched\s+medium/.test(seen) && /MODIFIED\s+watched\s+large/.test(seen) && /DELETED\s+watched/.test(seen),
        20_000,
      );
    } finally {
      watcher.kill();
    }
  });

  it('RBAC applies to custom resources: a user allowed to read widgets reads them and may not delete them', async () => {
    await k(['create', 'role', 'widget-reader', '--verb=get,list,watch', '--resource=widgets.shop.example.com']);
    await k(['create', 'rolebinding', 'jane-reads-widgets', '--role=widget-reader', '--user=jane']);
    await waitFor('jane may list widgets', async () => (await cluster.kubectlRaw(['get', 'wd', '--as=jane', '-o', 'name'])).code === 0, 10_000);
    const denied = await cluster.kubectlRaw(['delete', 'widget/alpha', '--as=jane']);
    assert.notEqual(denied.code, 0);
    assert.match(
      denied.stderr,
      /widgets\.shop\.example\.com "alpha" is forbidden: User "jane" cannot delete resource "widgets" in API group "shop\.example\.com"/,
    );
    // An operator's ClusterRole labelled for aggregation extends the built-in edit role to its kind.
    await k(
      ['apply', '-f', '-'],
      `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widget-editor
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- apiGroups: [shop.example.com]
  resources: [widgets]
  verbs: ['*']
`,
    );
    await k(['create', 'rolebinding', 'kim-edits', '--clusterrole=edit', '--user=kim']);
    await waitFor(
      'kim may create widgets',
      async () => (await cluster.kubectlRaw(['auth', 'can-i', 'create', 'widgets.shop.example.com', '--as=kim'])).stdout.trim() === 'yes',
      10_000,
    );
    await cluster.kubectl(['apply', '--as=kim', '-f', '-'], { input: widgetYaml('kims', 'image: busybox:1') });
  });

  it('a CRD that is not structural, or asks for webhook conversion, is refused with the fields named', async () => {
    const bad = WIDGET_CRD.replace('name: widgets.shop.example.com', 'name: gadgets.shop.example.com')
      .replace('plural: widgets', 'plural: gadgets')
      .replace('singular: widget', 'singular: gadget')
      .replace('kind: Widget', 'kind: Gadget')
      .replace('shortNames: [wd]', 'shortNames: [gd]')
      .replace('              selector:\n                type: string', '              selector:\n                description: no type')
      .replace('  scope: Namespaced', '  scope: Namespaced\n  conversion:\n    strategy: Webhook');
    const result = await cluster.kubectlRaw(['apply', '-f', '-'], { input: bad });
    assert.notEqual(result.code, 0);
    assert.match(
      result.stderr,
      /spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.properties\[selector\]\.type: Required value: must not be empty for specified object fields/,
    );
    assert.match(result.stderr, /spec\.conversion\.strategy: Forbidden: conversion webhooks are not supported/);
  });

  it('a CRD whose names another CRD of the group took is not accepted', async () => {
    const clash = WIDGET_CRD.replace('name: widgets.shop.example.com', 'name: sprockets.shop.example.com')
      .replace('plural: widgets', 'plural: sprockets')
      .replace('singular: widget', 'singular: sprocket')
      .replace('kind: Widget', 'kind: Sprocket');
    await k(['apply', '-f', '-'], clash);
    await waitFor(
      'NamesAccepted False',
      async () => (await jsonpath('crd/sprockets.shop.example.com', '{.status.conditions[?(@.type=="NamesAccepted")].status}')) === 'False',
      10_000,
    );
    assert.equal(await jsonpath('crd/sprockets.shop.example.com', '{.status.conditions[?(@.type=="NamesAccepted")].message}'), '"wd" is already in use');
    assert.notEqual(await jsonpath('crd/sprockets.shop.example.com', '{.status.conditions[?(@.type=="Established")].status}'), 'True');
    await k(['delete', 'crd', 'sprockets.shop.example.com']);
    // A built-in resource's names are taken in its group too.
    await k(
      ['apply', '-f', '-'],
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: transactions.drover.dev}
spec:
  group: drover.dev
  scope: Namespaced
  names: {plural: transactions, kind: Txn}
  versions:
  - {name: v2, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`,
    );
    await waitFor(
      'NamesAccepted False',
      async () =>
        (await jsonpath('crd/transactions.drover.dev', '{.status.conditions[?(@.type=="NamesAccepted")].message}')) === '"transactions" is already in use',
      10_000,
    );
    await k(['delete', 'crd', 'transactions.drover.dev']);
  });

  it('deleting a namespace deletes its custom resources; kubectl delete crd deletes every instance and the endpoints go', async () => {
    await k(['create', 'namespace', 'doomed']);
    await k(['apply', '-n', 'doomed', '-f', '-'], widgetYaml('inside', 'image: busybox:1'));
    await k(['delete', 'namespace', 'doomed', '--timeout=30s']);
    assert.equal((await cluster.kubectlRaw(['get', 'namespace', 'doomed'])).code, 1);

    assert.ok((await k(['get', 'wd', '-A', '-o', 'name'])).trim().split('\n').length >= 4);
    // A finalizer of its own keeps one widget, and with it the CRD, Terminating: no widget may be made meanwhile.
    await k(['apply', '-f', '-'], widgetYaml('held', 'image: busybox:1').replace('  name: held', '  name: held\n  finalizers: [shop.example.com/hold]'));
    await k(['delete', 'crd', 'widgets.shop.example.com', '--wait=false']);
    await waitFor(
      'the CRD Terminating',
      async () => (await jsonpath('crd/widgets.shop.example.com', '{.status.conditions[?(@.type=="Terminating")].status}')) === 'True',
      10_000,
    );
    await waitFor('the other widgets deleted', async () => (await k(['get', 'wd', '-A', '-o', 'name'])).trim() === 'widget.shop.example.com/held', 20_000);
    const refused = await cluster.kubectlRaw(['create', '-f', '-'], { input: widgetYaml('late', 'image: busybox:1') });
    assert.match(refused.stderr, /create not allowed while custom resource definition is terminating/);
    await k(['patch', 'widget/held', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    await k(['wait', '--for=delete', '--timeout=30s', 'crd/widgets.shop.example.com']);
    assert.equal((await cluster.kubectlRaw(['get', 'crd', 'widgets.shop.example.com'])).code, 1);
    const gone = await cluster.api('GET', '/apis/shop.example.com/v1/widgets');
    assert.equal(gone.status, 404);
    const cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    assert.doesNotMatch(await k(['api-resources', '--cache-dir', cacheDir]), /widgets/);
    // Made again, the CRD starts empty: its instances went with it.
    await k(['apply', '-f', '-'], WIDGET_CRD);
    await k(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.shop.example.com']);
    const list = await cluster.api('GET', '/apis/shop.example.com/v1/widgets');
    assert.deepEqual(list.body.items, []);
  });
});

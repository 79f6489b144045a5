// Requests a hostile or careless client sends, each once found to lose data, crash the server,
// or answer 500: dot segments and encoded slashes in paths, `__proto__` keys, bodies nested
// too deep, odd headers, and watch timeouts. Raw node:http requests: fetch would resolve the
// dot segments before they reached the server.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { describe, it } from 'node:test';
import { MAX_BODY_DEPTH } from '../src/apiserver/decode/limits.js';
import { sendRaw, type RawAnswer } from './support/apiserver/in-process-server.js';
import { useTestServer } from './support/apiserver/use-test-server.js';
import { measureControlLatency, wideConfigMap } from './support/hostile-requests.js';

type Answer = RawAnswer;

const bed = useTestServer({}, seed);

function send(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  return sendRaw(bed.server.url, method, path, body, headers);
}

const json = (value: unknown) => JSON.stringify(value);
const patchHeaders = (verb: string): Record<string, string> => (verb === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {});
const configMap = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });

async function create(path: string, object: unknown): Promise<void> {
  const answer = await send('POST', path, json(object));
  assert.ok(answer.status === 201, `${path}: ${answer.status} ${answer.text}`);
}

async function names(path: string): Promise<string[]> {
  const answer = await send('GET', path);
  assert.equal(answer.status, 200, answer.text);
  return (answer.json.items as Array<{ metadata: { name: string } }>).map((item) => item.metadata.name).sort();
}

/** The namespaces, ConfigMaps and Secrets the tests read. */
async function seed(): Promise<void> {
  for (const ns of ['x', 'y']) await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (const ns of ['x', 'y']) for (const name of ['c1', 'c2']) await create(`/api/v1/namespaces/${ns}/configmaps`, configMap(name));
  await create('/api/v1/namespaces/x/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } });
  await create('/api/v1/namespaces/kube-system/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } });
}

describe('paths are never normalised', () => {
  const DOTS = ['.', '..', '%2e', '%2E%2e', '.%2e', '%2e.'];
  const VERBS = ['GET', 'DELETE', 'PUT', 'PATCH'];

  async function assertNothingLost(): Promise<void> {
    assert.deepEqual(await names('/api/v1/namespaces/x/configmaps'), ['c1', 'c2']);
    assert.deepEqual(await names('/api/v1/namespaces/y/configmaps'), ['c1', 'c2']);
    assert.deepEqual(await names('/api/v1/namespaces/x/secrets'), ['s']);
    assert.equal((await send('GET', '/api/v1/namespaces/x')).json.status.phase, 'Active');
  }

  it('answers a dot-segment name or namespace with 400, for every verb and encoding, and deletes nothing', async () => {
    const body = json({ metadata: { labels: { a: 'b' } } });
    for (const dots of DOTS) {
      for (const verb of VERBS) {
        const headers = patchHeaders(verb);
        const payload = verb === 'PUT' || verb === 'PATCH' ? body : undefined;
        for (const path of [
          `/api/v1/namespaces/x/configmaps/${dots}`,
          `/api/v1/namespaces/x/secrets/${dots}`,
          `/api/v1/namespaces/${dots}`,
          `/api/v1/namespaces/${dots}/configmaps/c1`,
          `/api/v1/namespaces/x/pods/${dots}/status`,
          `/apis/apps/v1/namespaces/x/deployments/${dots}/scale`,
        ]) {
          const answer = await send(verb, path, payload, headers);
          assert.equal(answer.status, 400, `${verb} ${path}: ${answer.status} ${answer.text}`);
          assert.equal(answer.json.kind, 'Status');
          assert.match(answer.json.message, /parameter invalid: ".*": may not be '\.\.?'/);
        }
      }
    }
    await assertNothingLost();
  });

  it('never lets dot segments or encoded slashes reach another namespace', async () => {
    for (const verb of VERBS) {
      for (const path of [
        '/api/v1/namespaces/x/secrets/../../y/configmaps/c1',
        '/api/v1/namespaces/x/secrets/%2e%2e/%2e%2e/y/configmaps/c1',
        '/api/v1/namespaces/x/secrets/..%2f..%2fy%2fconfigmaps%2fc1',
        '/api/v1/namespaces/x/configmaps/../../kube-system/secrets/s',
        '/api/v1/namespaces/x/configmaps/..%2F..%2Fkube-system%2Fsecrets%2Fs',
        '/api/v1/namespaces/x//configmaps',
        '/api/v1/namespaces//configmaps/c1',
        '/api/v1/namespaces/x/%2f',
        '/api/v1/namespaces/x/%2F%2F',
        '/api/v1/namespaces/x%2f',
        '/api/v1/namespaces/x%2Fconfigmaps%2Fc1',
        '/api/v1/namespaces/x/configmaps/c1%2f',
      ]) {
        const answer = await send(verb, path, verb === 'PUT' || verb === 'PATCH' ? json(configMap('c1')) : undefined, patchHeaders(verb));
        assert.ok(answer.status === 404 || answer.status === 400, `${verb} ${path}: ${answer.status} ${answer.text}`);
        assert.doesNotMatch(answer.text, /"kind":"Secret"/);
      }
    }
    await assertNothingLost();
    assert.equal((await send('GET', '/api/v1/namespaces/kube-system/secrets/s')).status, 200);
  });

  it('answers a named object on the all-namespaces path with 404', async () => {
    for (const verb of VERBS) {
      for (const path of ['/api/v1/secrets/kube-system%2Fs', '/api/v1/secrets/kube-system%2fs', '/api/v1/secrets/s', '/api/v1/configmaps/c1']) {
        const answer = await send(
          verb,
          path,
          verb === 'PUT' || verb === 'PATCH' ? json({ metadata: { labels: { stolen: 'yes' } } }) : undefined,
          patchHeaders(verb),
        );
        assert.equal(answer.status, 404, `${verb} ${path}: ${answer.status} ${answer.text}`);
      }
    }
    const secret = await send('GET', '/api/v1/namespaces/kube-system/secrets/s');
    assert.equal(secret.json.metadata.labels, undefined);
  });

  it('answers a path that is not valid percent-encoding with 400', async () => {
    for (const path of ['/api/v1/namespaces/x/configmaps/%ff', '/api/v1/namespaces/%E0%A4%A/configmaps', '/api/v1/%zz']) {
      const answer = await send('GET', path);
      assert.equal(answer.status, 400, `${path}: ${answer.text}`);
      assert.equal(answer.json.reason, 'BadRequest');
    }
  });
});

describe('the namespaces a cluster cannot lose', () => {
  it('refuses to delete default, kube-system and kube-public (403), as Kubernetes does', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const answer = await send('DELETE', `/api/v1/namespaces/${name}`);
      assert.equal(answer.status, 403, answer.text);
      assert.match(answer.json.message, /this namespace may not be deleted/);
      assert.equal((await send('GET', `/api/v1/namespaces/${name}`)).json.status.phase, 'Active');
    }
  });
});

describe('__proto__ and constructor are ordinary keys', () => {
  const POISONS = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"__proto__":{"__proto__":{"polluted":"yes"}}}'];
  const YAML_POISONS = ['__proto__:\n  polluted: "yes"\n', 'constructor:\n  prototype:\n    polluted: "yes"\n'];

  function assertUnpolluted(): void {
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype was changed');
    assert.deepEqual(
      Object.getOwnPropertyNames(Object.prototype).filter((name) => name === 'polluted'),
      [],
    );
    assert.equal((Object as unknown as Record<string, unknown>)['polluted'], undefined);
    assert.equal((Function.prototype as unknown as Record<string, unknown>)['polluted'], undefined);
  }

  it('reaches no prototype through any body format, position or patch type', async () => {
    const cm = '/api/v1/namespaces/x/configmaps';
    const answers: Answer[] = [];
    for (const [i, poison] of POISONS.entries()) {
      const inner = poison.slice(1, -1);
      const bodies = [
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p${i}",${inner}},${inner}}`,
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"q${i}","labels":${poison},"annotations":${poison}},"data":${poison}}`,
        `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"r${i}","managedFields":[{"manager":"m","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":${poison}}]}}`,
      ];
      for (const body of bodies) {
        answers.push(await send('POST', cm, body));
        answers.push(await send('POST', cm, body, { 'Content-Type': 'application/yaml' }));
        answers.push(await send('PUT', `${cm}/c1`, body));
        answers.push(await send('PATCH', `${cm}/c1`, body, { 'Content-Type': 'application/merge-patch+json' }));
        answers.push(await send('PATCH', `${cm}/c1`, body, { 'Content-Type': 'application/strategic-merge-patch+json' }));
        answers.push(
          await send('PATCH', `${cm}/c2?fieldManager=a&force=true`, body.replace(/"name":"[a-z]\d"/, '"name":"c2"'), {
            'Content-Type': 'application/apply-patch+yaml',
          }),
        );
      }
      answers.push(
        await send('PATCH', `${cm}/c1`, `[{"op":"add","path":"/__proto__","value":${poison}},{"op":"add","path":"/__proto__/polluted","value":"yes"}]`, {
          'Content-Type': 'application/json-patch+json',
        }),
      );
      answers.push(
        await send(
          'PATCH',
          `${cm}/c1`,
          `[{"op":"add","path":"/metadata/labels","value":{}},{"op":"add","path":"/metadata/labels/__proto__","value":${poison}}]`,
          { 'Content-Type': 'application/json-patch+json' },
        ),
      );
      answers.push(await send('GET', `${cm}?labelSelector=__proto__%3Dx`));
      answers.push(await send('GET', `${cm}?fieldSelector=__proto__%3Dx`));
    }
    for (const [i, poison] of YAML_POISONS.entries()) {
      const apply = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c2\n  labels:\n    ${poison.replace(/\n(?=.)/g, '\n    ')}${poison}data:\n  ${poison.replace(/\n(?=.)/g, '\n  ')}`;
      answers.push(await send('PATCH', `${cm}/c2?fieldManager=y${i}&force=true`, apply, { 'Content-Type': 'application/apply-patch+yaml' }));
      answers.push(await send('POST', cm, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y${i}\n${poison}`, { 'Content-Type': 'application/yaml' }));
    }
    for (const answer of answers) assert.ok(answer.status < 500, `${answer.status} ${answer.text}`);
    assertUnpolluted();
    assert.equal((await send('GET', '/readyz')).status, 200);
    assert.equal((await send('GET', '/metrics')).status, 200);
    assert.deepEqual(
      (await names(cm)).filter((name) => name.startsWith('c')),
      ['c1', 'c2'],
    );
  });

  it('keeps a ConfigMap data key named __proto__ as data', async () => {
    await create(
      '/api/v1/namespaces/y/configmaps',
      JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto"},"data":{"__proto__":"v","constructor":"w"}}'),
    );
    const read = await send('GET', '/api/v1/namespaces/y/configmaps/proto');
    assert.match(read.text, /"data":\{"__proto__":"v","constructor":"w"\}/);
    const patched = await send('PATCH', '/api/v1/namespaces/y/configmaps/proto', '{"data":{"__proto__":"v2"}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.match(patched.text, /"data":\{"__proto__":"v2","constructor":"w"\}/);
    const applied = await send(
      'PATCH',
      '/api/v1/namespaces/y/configmaps/proto?fieldManager=z&force=true',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proto\ndata:\n  __proto__: v3\n',
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    assert.equal(applied.status, 200, applied.text);
    assert.match(applied.text, /"__proto__":"v3"/);
    assertUnpolluted();
  });
});

/** `{"a":{"a":…1…}}` nested `depth` objects deep. */
const nestedJson = (depth: number, key = 'a') => `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;

describe('depth is bounded at the door', () => {
  it('answers bodies nested too deep with 400, in every format', async () => {
    const cm = '/api/v1/namespaces/x/configmaps';
    const deep = 20_000;
    const bodies: Array<[string, string, string]> = [
      ['POST', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${nestedJson(deep)}}`, 'application/json'],
      ['POST', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${'['.repeat(deep)}${']'.repeat(deep)}}`, 'application/json'],
      ['POST', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx: ${'['.repeat(deep)}${']'.repeat(deep)}\n`, 'application/yaml'],
      ['POST', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx: ${'{a: '.repeat(deep)}1${'}'.repeat(deep)}\n`, 'application/yaml'],
      [
        'POST',
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}a${i}:\n`).join('')}`,
        'application/yaml',
      ],
      ['PATCH', nestedJson(deep), 'application/merge-patch+json'],
      ['PATCH', nestedJson(deep), 'application/strategic-merge-patch+json'],
      ['PATCH', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1"},"x":${nestedJson(deep)}}`, 'application/apply-patch+yaml'],
      ['PATCH', `[{"op":"add","path":"/x","value":${nestedJson(deep)}}]`, 'application/json-patch+json'],
    ];
    for (const [method, body, type] of bodies) {
      const path = method === 'POST' ? cm : `${cm}/c1?fieldManager=deep`;
      const answer = await send(method, path, body, { 'Content-Type': type });
      assert.equal(answer.status, 400, `${method} ${type}: ${answer.status} ${answer.text.slice(0, 300)}`);
      assert.match(answer.json.message, /nests deeper than|not valid/);
    }
  });

  it('answers a deeply nested protobuf body with 400', async () => {
    // A Kubernetes protobuf envelope (magic, Unknown{typeMeta, raw}) whose raw ConfigMap holds
    // ObjectMeta → managedFields → fieldsV1 … is not how depth arrives; the decoder recurses on
    // nested messages, so a chain of length-delimited field 1s nests as deep as the bytes go.
    let inner = Buffer.alloc(0);
    for (let i = 0; i < 5000; i++) inner = Buffer.concat([Buffer.from([0x0a]), varint(inner.length), inner]);
    const typeMeta = Buffer.concat([Buffer.from([0x0a, 2]), Buffer.from('v1'), Buffer.from([0x12, 9]), Buffer.from('ConfigMap')]);
    const unknown = Buffer.concat([Buffer.from([0x0a]), varint(typeMeta.length), typeMeta, Buffer.from([0x12]), varint(inner.length), inner]);
    const body = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), unknown]);
    const answer = await send('POST', '/api/v1/namespaces/x/configmaps', body, { 'Content-Type': 'application/vnd.kubernetes.protobuf' });
    assert.ok(answer.status >= 400 && answer.status < 500, `${answer.status} ${answer.text.slice(0, 300)}`);
  });

  it('reads, lists, patches and applies an object at the deepest accepted nesting through every path', async () => {
    // managedFields' fieldsV1 is the one free-form field of a ConfigMap: the poison object of
    // the issue nested it 3,450 deep. One level less than the limit is accepted...
    const fields = (depth: number) => `${'{"f:a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
    const managed = (depth: number) => `[{"manager":"m","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":${fields(depth)}}]`;
    const deepest = MAX_BODY_DEPTH - 5;
    const tooDeep = await send(
      'POST',
      '/api/v1/namespaces/y/configmaps',
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"poison","managedFields":${managed(3450)}}}`,
    );
    assert.equal(tooDeep.status, 400, tooDeep.text.slice(0, 300));
    const created = await send(
      'POST',
      '/api/v1/namespaces/y/configmaps',
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deepest","managedFields":${managed(deepest)}},"data":{"k":"v"}}`,
    );
    assert.equal(created.status, 201, created.text.slice(0, 300));
    // ...and nothing that reads it afterwards fails.
    const reads: Array<[string, string, string?, Record<string, string>?]> = [
      ['GET', '/api/v1/namespaces/y/configmaps/deepest'],
      ['GET', '/api/v1/namespaces/y/configmaps/deepest', undefined, { Accept: 'application/yaml' }],
      ['GET', '/api/v1/namespaces/y/configmaps', undefined, { Accept: 'application/yaml' }],
      ['GET', '/api/v1/namespaces/y/configmaps', undefined, { Accept: 'application/yaml;q=0.1, */*;q=0' }],
      ['GET', '/api/v1/namespaces/y/configmaps', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }],
      ['GET', '/api/v1/configmaps?limit=1', undefined, { Accept: 'application/yaml' }],
      ['PATCH', '/api/v1/namespaces/y/configmaps/deepest', '{"data":{"k":"v2"}}', { 'Content-Type': 'application/merge-patch+json' }],
      ['PATCH', '/api/v1/namespaces/y/configmaps/deepest', '{"data":{"k":"v3"}}', { 'Content-Type': 'application/strategic-merge-patch+json' }],
      [
        'PATCH',
        '/api/v1/namespaces/y/configmaps/deepest?fieldManager=m2&force=true',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deepest\ndata:\n  k: v4\n',
        { 'Content-Type': 'application/apply-patch+yaml' },
      ],
      [
        'PATCH',
        '/api/v1/namespaces/y/configmaps/deepest?fieldManager=m3&force=true',
        '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deepest"},"data":{"k":"v5"}}',
        { 'Content-Type': 'application/apply-patch+yaml' },
      ],
      ['PUT', '/api/v1/namespaces/y/configmaps/deepest', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deepest"},"data":{"k":"v6"}}`],
      ['GET', '/api/v1/namespaces/y/configmaps/deepest', undefined, { Accept: 'application/yaml' }],
    ];
    for (const [method, path, body, headers] of reads) {
      const answer = await send(method, path, body, headers);
      assert.ok(answer.status < 300, `${method} ${path} ${JSON.stringify(headers)}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  });
});

describe('one object is at most 1.5 MiB, as etcd allows', () => {
  it('answers a larger object with 413 and keeps the one stored', async () => {
    // Within the ConfigMap's own 1 MiB of data, but its managedFields name every key again.
    const data = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${String(i).padStart(5, '0')}`, 'xxxxxxxx']));
    const created = await send('POST', '/api/v1/namespaces/x/configmaps', json(configMap('huge', { data })));
    assert.equal(created.status, 413, created.text.slice(0, 300));
    assert.equal(created.json.reason, 'RequestEntityTooLarge');
    const patched = await send('PATCH', '/api/v1/namespaces/x/configmaps/c2', json({ data }), { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 413, patched.text.slice(0, 300));
    assert.equal((await send('GET', '/api/v1/namespaces/x/configmaps/c2')).json.data, undefined);
  });

  it('refuses a whole object larger than that at the door, for create, update and apply', async () => {
    const data = Object.fromEntries(Array.from({ length: 120_000 }, (_, i) => [`k${String(i).padStart(6, '0')}`, 'xxxxxxxx']));
    const body = json(configMap('c2', { data }));
    for (const [method, path, type] of [
      ['POST', '/api/v1/namespaces/x/configmaps', 'application/json'],
      ['PUT', '/api/v1/namespaces/x/configmaps/c2', 'application/json'],
      ['PATCH', '/api/v1/namespaces/x/configmaps/c2?fieldManager=big&force=true', 'application/apply-patch+yaml'],
    ] as const) {
      const answer = await send(method, path, body, { 'Content-Type': type });
      assert.equal(answer.status, 413, `${method}: ${answer.text.slice(0, 300)}`);
      assert.match(answer.json.message, /the object is too large: \d+ bytes, limit is 1572864/);
    }
  });
});

describe('odd requests are the client’s mistake', () => {
  it('answers Accept headers it cannot serve with 406, never 500', async () => {
    for (const accept of ['application/yaml;q=0.1, */*;q=0', 'text/html', 'application/json;q=x', ';;;,,,', 'application/json;as=Table;v=v9;g=meta.k8s.io']) {
      for (const path of ['/api/v1/namespaces/x/configmaps', '/api/v1/namespaces/x/configmaps/c1']) {
        const answer = await send('GET', path, undefined, { Accept: accept });
        assert.ok(answer.status === 200 || answer.status === 406, `${accept} ${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
  });

  it('rejects duplicate fields under fieldValidation=Strict and warns under Warn', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup"},"data":{"a":"1","a":"2"}}';
    const strict = await send('POST', '/api/v1/namespaces/x/configmaps?fieldValidation=Strict', body);
    assert.equal(strict.status, 400, strict.text);
    assert.match(strict.json.message, /duplicate field "metadata\.name"/);
    assert.match(strict.json.message, /duplicate field "data\.a"/);
    const yaml = await send(
      'POST',
      '/api/v1/namespaces/x/configmaps?fieldValidation=Strict',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dupy\ndata:\n  a: "1"\n  a: "2"\n',
      { 'Content-Type': 'application/yaml' },
    );
    assert.equal(yaml.status, 400, yaml.text);
    assert.match(yaml.json.message, /duplicate field "data\.a"/);
    const warned = await send('POST', '/api/v1/namespaces/x/configmaps', body);
    assert.equal(warned.status, 201, warned.text);
    assert.match(String(warned.headers['warning']), /duplicate field \\"data\.a\\"/);
    assert.equal(warned.json.data.a, '2', 'the last value counts, as in Kubernetes');
  });

  it('keeps a watch open for timeoutSeconds=0 (the default) and for a huge timeoutSeconds', async () => {
    for (const timeout of ['0', '99999999999']) {
      const url = new URL(bed.server.url);
      const ended = await new Promise<boolean>((resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: `/api/v1/namespaces/x/configmaps?watch=true&timeoutSeconds=${timeout}`, ...bed.server.adminTls },
          (res) => {
            let done = false;
            res.on('data', () => undefined);
            res.on('end', () => (done = true));
            setTimeout(() => {
              req.destroy();
              resolve(done);
            }, 1500);
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(ended, false, `timeoutSeconds=${timeout} ended the watch at once`);
    }
  });
});

describe('one client does not hold the server', () => {
  it('parses a YAML body of 20,000 keys in linear time while others are served', async () => {
    const control = measureControlLatency(bed.server.url, bed.server.adminTls, '/api/v1/namespaces/x/configmaps/c1', 5);
    const answer = await send('POST', '/api/v1/namespaces/x/configmaps', wideConfigMap('wide', 20_000, 'yaml'), { 'Content-Type': 'application/yaml' });
    const { count, p99 } = await control.stop();
    assert.equal(answer.status, 201, answer.text.slice(0, 300));
    console.log(`control client during a 20,000-key YAML body: ${count} requests, p99 ${p99.toFixed(1)} ms`);
    // Was 11 s (the whole parse, on the event loop). A loaded CI machine gets room; bench:hardening prints the figure.
    assert.ok(p99 < 500, `control p99 ${p99.toFixed(1)} ms`);
  });
});

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

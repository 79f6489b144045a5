// What a hostile or careless client sends an API server, for the fuzz test and
// bench:hardening: dot segments and encoded slashes in every path position, `__proto__` and
// `constructor` keys in every body format, bodies at the extremes of depth and key count. And a
// control client that measures how fast an ordinary GET is answered meanwhile.
import type { TlsConfig } from '../../src/client/config.js';
import { rawRequest } from './client/raw-request.js';

export interface HostileRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

const DOTS = ['.', '..', '%2e', '%2E%2e', '.%2e', '%2f', '%2F..', '..%2f..', '%00', '%ff', '%'];
const PATCH_TYPES = ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
const POISONS = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}'];

/**
 * Every request below for each collection path (e.g. /api/v1/namespaces/default/pods), then the
 * extremes of depth and key count. `wideJsonKeys`: the key count of the widest JSON bodies.
 */
export function hostileRequests(collections: string[], wideJsonKeys = 20_000): HostileRequest[] {
  const requests: HostileRequest[] = [];
  for (const collection of collections) {
    const parts = collection.split('/');
    for (const dots of DOTS) {
      // The dot segment as name, as namespace, as plural, and as a step past the end.
      const positions = [`${collection}/${dots}`, `${collection}/${dots}/status`, `${collection}/x/${dots}`, `${parts.slice(0, -1).join('/')}/${dots}`];
      if (collection.includes('/namespaces/')) positions.push(collection.replace('/namespaces/default/', `/namespaces/${dots}/`));
      for (const path of positions) {
        requests.push({ method: 'GET', path }, { method: 'DELETE', path });
        requests.push({ method: 'PATCH', path, body: '{"metadata":{"labels":{"a":"b"}}}', headers: { 'Content-Type': 'application/merge-patch+json' } });
      }
    }
    requests.push({ method: 'DELETE', path: `${collection}/../../kube-system/configmaps/x` }, { method: 'GET', path: `${collection}/..%2F..%2Fkube-system` });
    for (const poison of POISONS) {
      const inner = poison.slice(1, -1);
      const object = `{"metadata":{"name":"p",${inner},"labels":${poison},"annotations":${poison}},${inner},"spec":${poison},"data":${poison}}`;
      requests.push(
        { method: 'POST', path: collection, body: object },
        { method: 'POST', path: collection, body: object, headers: { 'Content-Type': 'application/yaml' } },
      );
      for (const type of PATCH_TYPES)
        requests.push({
          method: 'PATCH',
          path: `${collection}/p?fieldManager=h&force=${type.includes('apply')}`,
          body: object,
          headers: { 'Content-Type': type },
        });
      requests.push({
        method: 'PATCH',
        path: `${collection}/p`,
        body: `[{"op":"add","path":"/__proto__/polluted","value":"yes"},{"op":"add","path":"/metadata/__proto__","value":${poison}}]`,
        headers: { 'Content-Type': 'application/json-patch+json' },
      });
    }
  }
  const cm = '/api/v1/namespaces/default/configmaps';
  const deep = 20_000;
  requests.push(
    { method: 'POST', path: cm, body: `{"metadata":{"name":"deep"},"x":${'['.repeat(deep)}${']'.repeat(deep)}}` },
    { method: 'POST', path: cm, body: `metadata:\n  name: deep\nx: ${'['.repeat(deep)}${']'.repeat(deep)}\n`, headers: { 'Content-Type': 'application/yaml' } },
    {
      method: 'POST',
      path: cm,
      body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep-mf","managedFields":[{"manager":"m","operation":"Update","fieldsType":"FieldsV1","fieldsV1":${'{"f:a":'.repeat(3450)}{}${'}'.repeat(3450)}}]}}`,
    },
    { method: 'POST', path: cm, body: wideConfigMap('wide-yaml', 20_000, 'yaml'), headers: { 'Content-Type': 'application/yaml' } },
    { method: 'POST', path: cm, body: wideConfigMap('wide-json', wideJsonKeys, 'json') },
    {
      method: 'PATCH',
      path: `${cm}/wide-json?fieldManager=h`,
      body: wideConfigMap('wide-json', wideJsonKeys, 'json'),
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
    },
    { method: 'GET', path: cm, headers: { Accept: 'application/yaml;q=0.1, */*;q=0' } },
    { method: 'GET', path: `${cm}?watch=true&timeoutSeconds=1` },
    { method: 'GET', path: `${cm}?watch=true&timeoutSeconds=99999999999999999999` },
    { method: 'POST', path: `${cm}?fieldValidation=Strict`, body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","name":"d"}}' },
  );
  return requests;
}

/** A ConfigMap of `keys` data keys, as YAML or JSON (20,000 YAML keys took 11 s to parse). */
export function wideConfigMap(name: string, keys: number, format: 'yaml' | 'json'): string {
  const entries = Array.from({ length: keys }, (_, i) => (format === 'yaml' ? `  k${i}: v${i}\n` : `"k${i}":"v${i}"`));
  return format === 'yaml'
    ? `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${entries.join('')}`
    : `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{${entries.join(',')}}}`;
}

export interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** GETs `path` every 20 ms until stopped; the latencies' median, p99 and maximum. */
export function measureControlLatency(base: string, tls: TlsConfig, path: string, intervalMs = 20): { stop(): Promise<Latency> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await rawRequest(base, tls, 'GET', path).catch(() => undefined);
      samples.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...samples].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
      return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
    },
  };
}

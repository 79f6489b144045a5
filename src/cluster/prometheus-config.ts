// `drover up|server --print-prometheus-config`: a Prometheus scrape configuration for the cluster
// of a data dir. Prometheus asks the API server where to scrape (HTTP service discovery, see
// src/apiserver/prometheus-targets.ts): the live API servers (their /metrics also carry the
// scheduler's and the controllers' series) and every Node's agent, which serves /metrics as a
// kubelet does. It signs in with a client certificate of its own (system:drover-prometheus in
// system:monitoring): RBAC lets it read the targets and /metrics, and agents let it read /metrics
// only.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { PROMETHEUS_SUBJECT, PROMETHEUS_TARGETS_PATH } from '../auth/components.js';
import { openClusterCa } from '../auth/pki/cluster-pki.js';
import { loadClientConfig } from '../client/index.js';

/** Scrape every 15 s, as kube-prometheus does. */
const SCRAPE_INTERVAL = '15s';

/**
 * Issues Prometheus's client certificate into `<dataDir>/prometheus/` (owner-only, a year, made
 * again on each call) and returns the configuration that uses it, as YAML.
 */
export async function issuePrometheusScrapeConfig(dataDir: string): Promise<string> {
  const kubeconfig = join(dataDir, 'kubeconfig');
  const apiServer = (await loadClientConfig({ kubeconfig }).catch(() => undefined))?.server;
  if (!apiServer) throw new Error(`${kubeconfig} is missing: start the cluster of ${dataDir} once first (drover up or drover server)`);
  const ca = await openClusterCa(dataDir);
  const issued = await ca.issue(PROMETHEUS_SUBJECT, 'client');
  const dir = join(dataDir, 'prometheus');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const files = { ca_file: join(dir, 'ca.crt'), cert_file: join(dir, 'client.crt'), key_file: join(dir, 'client.key') };
  await writeFile(files.ca_file, ca.caPem, { mode: 0o600 });
  await writeFile(files.cert_file, issued.certPem, { mode: 0o600 });
  await writeFile(files.key_file, issued.keyPem, { mode: 0o600 });
  return prometheusConfigYaml(apiServer, files);
}

export interface PrometheusTlsFiles {
  ca_file: string;
  cert_file: string;
  key_file: string;
}

export function prometheusConfigYaml(apiServer: string, tls: PrometheusTlsFiles): string {
  const job = (name: string, targets: string) => ({
    job_name: name,
    scheme: 'https',
    tls_config: tls,
    http_sd_configs: [{ url: `${apiServer}${PROMETHEUS_TARGETS_PATH}/${targets}`, refresh_interval: SCRAPE_INTERVAL, tls_config: tls }],
  });
  const config = {
    global: { scrape_interval: SCRAPE_INTERVAL },
    scrape_configs: [job('drover-apiserver', 'apiservers'), job('drover-agents', 'agents')],
  };
  return `# Prometheus scrape configuration for the Drover cluster at ${apiServer}\n# (drover --print-prometheus-config; the certificate files are Prometheus's own, owner-only)\n${stringify(config, { aliasDuplicateObjects: false })}`;
}

// The kubeconfig a server writes next to its data, so kubectl and drover's own commands find it:
// the cluster CA to verify the server with, and a client certificate for the identity.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import type { TlsConfig } from '../client/config.js';

export function kubeconfigFor(serverUrl: string, tls: TlsConfig, clusterName = 'drover'): string {
  const base64 = (data: Buffer | undefined) => (data ?? Buffer.alloc(0)).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server: serverUrl, 'certificate-authority-data': base64(tls.ca) } }],
    users: [{ name: `${clusterName}-admin`, user: { 'client-certificate-data': base64(tls.cert), 'client-key-data': base64(tls.key) } }],
    contexts: [{ name: clusterName, context: { cluster: clusterName, user: `${clusterName}-admin`, namespace: 'default' } }],
    'current-context': clusterName,
  });
}

export async function writeKubeconfig(path: string, serverUrl: string, tls: TlsConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, kubeconfigFor(serverUrl, tls), { mode: 0o600 });
}

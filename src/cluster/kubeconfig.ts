// The kubeconfig a server writes next to its data, so kubectl and drover's own commands find it.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export function kubeconfigFor(serverUrl: string, clusterName = 'drover'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server: serverUrl } }],
    users: [{ name: `${clusterName}-admin`, user: {} }],
    contexts: [{ name: clusterName, context: { cluster: clusterName, user: `${clusterName}-admin`, namespace: 'default' } }],
    'current-context': clusterName,
  });
}

export async function writeKubeconfig(path: string, serverUrl: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, kubeconfigFor(serverUrl), { mode: 0o600 });
}

// `drover signal pod/NAME [-c CONTAINER] SIGNAL`: the original executor's message to a running
// task, which Kubernetes lacks. It goes through the API (pods/NAME/signal) to the pod's agent.
import { ApiClient } from '../client/index.js';

export interface SignalOptions {
  kubeconfig?: string;
  namespace?: string;
  container?: string;
}

export async function sendSignal(target: string, signal: string, options: SignalOptions): Promise<string> {
  const name = target.startsWith('pod/') ? target.slice(4) : target.startsWith('pods/') ? target.slice(5) : target;
  if (!name || name.includes('/')) throw new Error(`expected pod/NAME, got "${target}"`);
  const api = await ApiClient.load(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}, { userAgent: 'drover-cli' });
  try {
    const namespace = options.namespace ?? api.defaultNamespace;
    const query = new URLSearchParams({ signal });
    if (options.container) query.set('container', options.container);
    await api.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/signal`, { query });
    return `pod/${name} signalled ${signal}`;
  } finally {
    api.close();
  }
}

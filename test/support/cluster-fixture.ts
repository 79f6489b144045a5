// One Drover server per test file, with kubectl bound to its kubeconfig.
import { after, before } from 'node:test';
import { kubectl, kubectlRaw, requireKubectl, type KubectlOptions, type KubectlResult } from './kubectl.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { rawRequest, type RawAnswer } from './client/raw-request.js';

export interface ClusterFixture {
  server(): ServerProcess;
  kubectl(args: string[], options?: KubectlOptions): Promise<string>;
  kubectlRaw(args: string[], options?: KubectlOptions): Promise<KubectlResult>;
  /** GET/POST/... against the API as the admin; returns status, parsed JSON body (else the text) and headers. */
  api(method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: any; headers: RawAnswer['headers'] }>;
}

/** `extraArgs` go to `drover server`, e.g. `--no-control-plane` for tests of the API alone. */
export function useCluster(options: { extraArgs?: string[] } = {}): ClusterFixture {
  let server: ServerProcess | undefined;
  before(async () => {
    requireKubectl();
    server = await startServerProcess(options);
  });
  after(async () => {
    await server?.stop();
    await server?.cleanup();
  });
  const current = () => {
    if (!server) throw new Error('the server is not running');
    return server;
  };
  return {
    server: current,
    kubectl: (args, options) => kubectl(current().kubeconfig, args, options),
    kubectlRaw: (args, options) => kubectlRaw(current().kubeconfig, args, options),
    async api(method, path, body, contentType = 'application/json') {
      const server = current();
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const answer = await rawRequest(server.url, server.tls, method, path, payload, payload === undefined ? {} : { 'Content-Type': contentType });
      return { status: answer.status, body: answer.json ?? answer.text, headers: answer.headers };
    },
  };
}

// /metrics of a component running on its own (`drover controller-manager`), on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { componentRegistry } from './component-metrics.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(port: number, host = '127.0.0.1'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    componentRegistry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': componentRegistry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

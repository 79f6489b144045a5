// The one way tests pick a loopback port nothing listens on (for an etcd member, a hostPort, a
// Prometheus, an address that must refuse connections).
import { createServer } from 'node:net';

/**
 * A port nothing listens on, taken below Linux's ephemeral range (32768+), where other tests'
 * outgoing connections pick their local ports: a port from up there (what listen(0) hands out)
 * could be taken again before the process it is meant for binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

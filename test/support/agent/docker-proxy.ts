// For the fault tests: a Unix socket that forwards to the real Docker socket and can be "shut
// down" (listener closed, socket file gone, connections cut) and brought back, which is what
// an agent sees when dockerd stops and starts — without stopping the machine's real daemon,
// which other tests share.
import { rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class DockerProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly path: string,
    private readonly target = process.env['DOCKER_HOST']?.replace(/^unix:\/\//, '') || '/var/run/docker.sock',
  ) {}

  async up(): Promise<void> {
    if (this.server) return;
    rmSync(this.path, { force: true });
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.path, () => resolve());
    });
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(this.path, { force: true });
  }
}

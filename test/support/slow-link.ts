// A TCP relay on loopback that holds every chunk a client sends for a fixed time before passing it
// to the server: each request then takes that much longer, as on a server whose queue is long.
// Answers pass at once. Chunks keep their order (one delay for all, and timers of equal delay
// fire in the order they were set), so TLS and HTTP keep-alive work through it unchanged.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface SlowLink {
  /** The relay's URL, with the scheme and path of the server's. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startSlowLink(serverUrl: string, delayMs: number): Promise<SlowLink> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), delayMs));
    client.on('end', () => setTimeout(() => upstream.end(), delayMs));
    upstream.pipe(client);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as { port: number }).port;
  return {
    url: `${target.protocol}//127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

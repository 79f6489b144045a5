// A test file's (or a suite's) one API server: started in `before` and closed in `after` of the
// suite it is called in, as every test of a server wrote by hand.
import { after, before } from 'node:test';
import type { ApiClient } from '../../../src/client/api-client.js';
import type { SqliteStore } from '../../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../../src/storage/store.js';
import { TestServer, type TestServerOptions } from './in-process-server.js';

/** The running server and an admin client of it; read them inside hooks and tests, once `before` has run. */
export interface ServedTest<S extends Store = SqliteStore> {
  readonly server: TestServer<S>;
  /** The admin's client, closed with the server. */
  readonly api: ApiClient;
}

/**
 * `setUp`: what the file's tests start from (objects to create), run in the same `before` once the
 * server is up, since a file's top-level `before` hooks do not wait for each other.
 */
export function useTestServer<S extends Store = SqliteStore>(
  options: TestServerOptions<S> = {},
  setUp?: (served: ServedTest<S>) => Promise<void>,
): ServedTest<S> {
  let started: { server: TestServer<S>; api: ApiClient } | undefined;
  const served: ServedTest<S> = {
    get server() {
      return running(started).server;
    },
    get api() {
      return running(started).api;
    },
  };
  before(async () => {
    const server = await TestServer.start(options);
    started = { server, api: server.client() };
    await setUp?.(served);
  });
  after(() => started?.server.close());
  return served;
}

/** What a `before` hook started, or an error that says it has not run yet. */
export function running<T>(started: T | undefined): T {
  if (!started) throw new Error('the test server is not started: read it inside a hook or a test');
  return started;
}

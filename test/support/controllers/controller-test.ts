// What a controller test starts from: a fresh API server, a client of it, and a controller
// manager running the controllers under test against it, quietly.
import { after, before } from 'node:test';
import { silentLogger, type ApiClient } from '../../../src/client/index.js';
import { TestServer } from '../apiserver/in-process-server.js';
import { running } from '../apiserver/use-test-server.js';
import { startControllerManager, type ControllerFactory, type RunningControllerManager } from '../../../src/controllers/manager.js';

export interface ControllerTestBed {
  server: TestServer;
  api: ApiClient;
  /** Replaceable: a test that restarts the manager puts the new one here, and close() stops it. */
  manager: RunningControllerManager;
  /** Stops the manager, then the server with its clients. */
  close(): Promise<void>;
}

export async function startControllerTest(...controllers: ControllerFactory[]): Promise<ControllerTestBed> {
  const server = await TestServer.start();
  const api = server.client();
  try {
    const bed: ControllerTestBed = {
      server,
      api,
      manager: await startControllerManager({ api, controllers, logger: silentLogger }),
      async close() {
        await bed.manager.stop();
        await server.close();
      },
    };
    return bed;
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** startControllerTest in `before` and close in `after` of the suite it is called in; read the bed inside hooks and tests. */
export function useControllerTest(...controllers: ControllerFactory[]): ControllerTestBed {
  let started: ControllerTestBed | undefined;
  before(async () => {
    started = await startControllerTest(...controllers);
  });
  after(() => started?.close());
  return {
    get server() {
      return running(started).server;
    },
    get api() {
      return running(started).api;
    },
    get manager() {
      return running(started).manager;
    },
    set manager(manager) {
      running(started).manager = manager;
    },
    close: () => running(started).close(),
  };
}

// What a controller test starts from: a fresh API server, a client of it, and a controller
// manager running the controllers under test against it, quietly.
import { after, before } from 'node:test';
import { silentLogger, type ApiClient } from '../../../src/client/index.js';
import { TestServer } from '../apiserver/in-process-server.js';
import { running } from '../apiserver/use-test-server.js';
import { startControllerManager, type ControllerFactory, type RunningControllerManager } from '../../../src/controllers/manager.js';

export interface ControllerTestBed {
  readonly server: TestServer;
  readonly api: ApiClient;
  /** The running manager; close() stops whichever one startManager last started. */
  readonly manager: RunningControllerManager;
  /** A new manager of these controllers in place of the one the test stopped (a restart). */
  startManager(...controllers: ControllerFactory[]): Promise<void>;
  /** Stops the manager, then the server with its clients. */
  close(): Promise<void>;
}

export async function startControllerTest(...controllers: ControllerFactory[]): Promise<ControllerTestBed> {
  const server = await TestServer.start();
  const api = server.client();
  const start = (factories: ControllerFactory[]) => startControllerManager({ api, controllers: factories, logger: silentLogger });
  try {
    let manager = await start(controllers);
    return {
      server,
      api,
      get manager() {
        return manager;
      },
      async startManager(...factories) {
        manager = await start(factories);
      },
      async close() {
        await manager.stop();
        await server.close();
      },
    };
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
    startManager: (...factories) => running(started).startManager(...factories),
    close: () => running(started).close(),
  };
}

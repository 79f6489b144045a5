// The data checker as `drover server` and `drover up` run it: beside the API server, with its
// own client of it and the server's store for the store check.
import type { ApiClient } from '../client/index.js';
import { DataChecker } from './data-checker.js';
import type { StoreProbe } from './store-check.js';

export interface DataCheckOptions {
  /** Seconds between rounds (`--data-check-interval`, default 1200); 0: only on demand. */
  intervalSeconds?: number;
  /** Scheduled rounds run the repairs that change objects too (`--data-check-repair`). */
  repair?: boolean;
}

export interface RunningDataChecker {
  checker: DataChecker;
  stop(): Promise<void>;
}

/** `api` is the checker's own client; it is closed with the checker. */
export async function startServerDataChecker(params: {
  api: ApiClient;
  identity: string;
  store: StoreProbe;
  options: DataCheckOptions;
}): Promise<RunningDataChecker> {
  const { api } = params;
  const checker = new DataChecker({ api, identity: params.identity, store: params.store, ...params.options });
  try {
    await checker.start();
  } catch (error) {
    api.close();
    throw error;
  }
  return {
    checker,
    async stop() {
      await checker.stop();
      api.close();
    },
  };
}

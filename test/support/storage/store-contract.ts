// The contract every Store implementation must pass. It tests only what the Store interface
// promises, so the SQLite and etcd backends run the very same cases:
//
//   runStoreContract('sqlite', async () => ({ store, reopen, compact, cleanup }));
//
// Each case opens a fresh, empty store through `open` and cleans it up afterwards. Cases that
// need `reopen` (restart persistence) or `compact` (the 410 Gone paths) are skipped without them.
import { describe } from 'node:test';
import { crudCases } from './contract/crud-cases.js';
import { filterCases } from './contract/filter-cases.js';
import type { OpenHarness } from './contract/helpers.js';
import { listCases } from './contract/list-cases.js';
import { restartCases } from './contract/restart-cases.js';
import { watchCases } from './contract/watch-cases.js';

export { reopenableHarness, type OpenHarness, type StoreHarness } from './contract/helpers.js';

export function runStoreContract(name: string, open: OpenHarness): void {
  describe(`Store contract: ${name}`, () => {
    describe('get, create, update, delete', () => crudCases(open));
    describe('list', () => listCases(open));
    describe('watch', () => watchCases(open));
    describe('filtered watch', () => filterCases(open));
    describe('restart', () => restartCases(open));
  });
}

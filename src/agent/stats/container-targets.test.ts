import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerRuntime } from '../runtime/runtime.js';
import { runtimeTargets } from './container-targets.js';

describe('container targets', () => {
  it('a runtime that fails to list fails the listing, rather than reporting no containers', async () => {
    const failing = {
      listContainers: async () => {
        throw new Error('docker: connection reset');
      },
    } as unknown as ContainerRuntime;
    const targets = runtimeTargets(() => [failing], { clusterId: 'c1', nodeName: 'n1' });
    await assert.rejects(targets(), /connection reset/);
  });
});

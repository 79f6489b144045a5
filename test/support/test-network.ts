// An address plan of its own for a test cluster that programs service rules and pod networks on
// this machine: test processes run side by side and share the host's routes and rules, so two
// clusters on the default ranges would step on each other. Slot i of 32 has pods in
// 10.(100+i).0.0/16 and Services in 10.(160+i).0.0/16, claimed by creating
// /tmp/drover-test-networks/slot-<i> (exclusively) with the claiming process's pid. A slot whose
// process is gone is stale and taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterNetwork, type ClusterNetwork } from '../../src/api/cluster-network.js';
import { processAlive } from '../../src/util/process-alive.js';

const LOCK_DIR = '/tmp/drover-test-networks';
const SLOTS = 32;

export interface TestNetwork extends ClusterNetwork {
  /** Gives the slot back (also done when the process exits). */
  release(): void;
  /** The plan as `drover server`, `up` and `agent` take it. */
  flags(): string[];
}

/** Creates the lock file only if no one has it; false when it exists. */
function tryCreate(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Claims slot `i`: free, or held by a process that is gone. */
function claim(path: string): boolean {
  if (tryCreate(path)) return true;
  let holder: number;
  try {
    holder = Number(readFileSync(path, 'utf8').trim());
  } catch {
    // Released between our create and read: try once more.
    return tryCreate(path);
  }
  // An empty file is a claim being written this instant: not stale.
  if (Number.isNaN(holder) || holder === 0 || processAlive(holder)) return false;
  // Stale. Two takers may both see it so; only one create after the removal wins.
  rmSync(path, { force: true });
  return tryCreate(path);
}

export function reserveTestNetwork(): TestNetwork {
  mkdirSync(LOCK_DIR, { recursive: true, mode: 0o777 });
  for (let slot = 0; slot < SLOTS; slot++) {
    const path = join(LOCK_DIR, `slot-${slot}`);
    if (!claim(path)) continue;
    const network = clusterNetwork({ podCidr: `10.${100 + slot}.0.0/16`, serviceCidr: `10.${160 + slot}.0.0/16` });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off('exit', release);
      // Only our own claim: a slot taken over as stale is another's now.
      try {
        if (Number(readFileSync(path, 'utf8').trim()) === process.pid) rmSync(path, { force: true });
      } catch {
        // Already gone.
      }
    };
    process.on('exit', release);
    return {
      ...network,
      release,
      flags: () => networkFlags(network),
    };
  }
  throw new Error(`all ${SLOTS} test networks in ${LOCK_DIR} are held by running processes`);
}

/** The four flags that give `network` to `drover server`, `up` or `agent`. */
export function networkFlags(network: ClusterNetwork): string[] {
  return [
    '--cluster-cidr',
    network.podCidr,
    '--service-cidr',
    network.serviceCidr,
    '--cluster-dns',
    network.clusterDns,
    '--cluster-domain',
    network.clusterDomain,
  ];
}

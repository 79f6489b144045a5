// Which pool sandbox belongs to which pod. A Docker container's labels cannot change after it is
// made, and a pool sandbox was made before its pod existed, so the pod's identity cannot be
// written on it. It is kept here instead: one small file per claimed sandbox in the runtime's
// state directory, written and fsynced (file, then folder) before the claim returns, so before
// any app container joins the sandbox. Why a file and not only the app containers' sandbox-id
// label: a pod can hold its sandbox with no container at all (claimed, then the agent killed
// before the first create; or every container removed between restarts), and its IP must stay
// the pod's. Read back at start, a claim makes the sandbox the pod's again after a restart or
// kill -9; it goes when the sandbox is removed.
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ATTEMPT, POD_NAME, POD_NAMESPACE, POD_UID } from '../labels.js';
import type { SandboxClaim } from '../runtime.js';

const SUFFIX = '.json';

export class SandboxClaims {
  private readonly bySandbox = new Map<string, SandboxClaim>();
  private readonly dir: string;

  constructor(stateDir: string) {
    this.dir = join(stateDir, 'sandbox-claims');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    for (const file of readdirSync(this.dir)) {
      if (!file.endsWith(SUFFIX)) continue;
      try {
        const claim = JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as SandboxClaim;
        if (claim.pod?.uid) this.bySandbox.set(file.slice(0, -SUFFIX.length), claim);
      } catch {
        // A claim torn by a crash before its rename cannot exist; anything else unreadable is not ours.
      }
    }
  }

  get(sandboxId: string): SandboxClaim | undefined {
    return this.bySandbox.get(sandboxId);
  }

  /** The sandboxes claimed for a pod (one, but for a moment while an old one is replaced). */
  ofPod(uid: string): string[] {
    return [...this.bySandbox].filter(([, claim]) => claim.pod.uid === uid).map(([id]) => id);
  }

  ids(): string[] {
    return [...this.bySandbox.keys()];
  }

  /** Durable when it returns: written to a temporary file, fsynced, renamed, and the folder fsynced. */
  async record(sandboxId: string, claim: SandboxClaim): Promise<void> {
    const path = join(this.dir, `${sandboxId}${SUFFIX}`);
    const temporary = `${path}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(JSON.stringify(claim));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    this.bySandbox.set(sandboxId, claim);
  }

  async drop(sandboxId: string): Promise<void> {
    if (!this.bySandbox.delete(sandboxId)) return;
    await rm(join(this.dir, `${sandboxId}${SUFFIX}`), { force: true });
  }

  /** The sandbox's labels as if it had been made for its pod (unchanged when it is not claimed). */
  labelsOf(sandboxId: string, labels: Record<string, string>): Record<string, string> {
    const claim = this.bySandbox.get(sandboxId);
    if (!claim) return labels;
    return { ...labels, [POD_UID]: claim.pod.uid, [POD_NAME]: claim.pod.name, [POD_NAMESPACE]: claim.pod.namespace, [ATTEMPT]: String(claim.attempt) };
  }
}

// Finished CertificateSigningRequests are deleted, as kube-controller-manager's csrcleaner does:
// approved, denied or failed ones an hour after they were decided, pending ones after a day, and
// any whose certificate has expired. Every server may run it: a delete of one already gone is
// no harm.
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import { APPROVED, DENIED, FAILED, conditionsOf, decodeBytes } from '../../api/validation/csr-validation.js';
import { prefixFor } from '../../apiserver/registry/keys.js';
import type { ObjectRegistry } from '../../apiserver/registry/object-registry.js';
import { daysLeft } from '../pki/certificates.js';

const HOUR_MS = 60 * 60 * 1000;
export const DECIDED_KEPT_MS = HOUR_MS;
export const PENDING_KEPT_MS = 24 * HOUR_MS;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Whether a request is done with and may go, at `now`. */
export function isFinished(csr: KubeObject, now: number): boolean {
  const decided = conditionsOf(csr).filter((c) => [APPROVED, DENIED, FAILED].includes(String(c['type'])));
  const issued = decodeBytes((csr['status'] as Record<string, unknown> | undefined)?.['certificate']);
  if (issued && expired(issued, now)) return true;
  if (decided.length > 0) {
    const at = Math.max(...decided.map((c) => Date.parse(String(c['lastUpdateTime'] ?? c['lastTransitionTime'] ?? '')) || 0));
    return now - at > DECIDED_KEPT_MS;
  }
  return now - (Date.parse(csr.metadata.creationTimestamp ?? '') || now) > PENDING_KEPT_MS;
}

function expired(certPem: string, now: number): boolean {
  try {
    return daysLeft(certPem, now) < 0;
  } catch {
    return false;
  }
}

export class CsrCleaner {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly registry: ObjectRegistry,
    private readonly now = () => Date.now(),
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep().catch((error: Error) => console.error(`csr cleaner: ${error.message}`)), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass; the names it deleted. */
  async sweep(): Promise<string[]> {
    const def = findResource('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
    const { items } = await this.registry.store.list({ prefix: prefixFor(def) });
    const deleted: string[] = [];
    for (const csr of items.filter((item) => isFinished(item, this.now()))) {
      const name = csr.metadata.name ?? '';
      try {
        await this.registry.delete(def, undefined, name, { dryRun: false, preconditions: { uid: csr.metadata.uid ?? '' } });
        deleted.push(name);
      } catch (error) {
        if ((error as { code?: number }).code !== 404 && (error as { code?: number }).code !== 409) throw error;
      }
    }
    return deleted;
  }
}

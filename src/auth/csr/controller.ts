// The certificate controller inside the API server (kube-controller-manager's csrapproving and
// csrsigning, run where the cluster CA is): it watches CertificateSigningRequests, approves
// the ones approver.ts allows, and signs every approved request for a kubernetes.io signer with
// the cluster CA, writing status.certificate — or the Failed condition when the request breaks
// its signer's rules (signers.ts). Writes carry the read resourceVersion, so on a store several
// servers share, one server's write wins and the others' come back 409 and are dropped.
import { Buffer } from 'node:buffer';
import type { KubeObject } from '../../api/meta.js';
import { findResource } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { APPROVED, DENIED, FAILED, decodeBytes, hasCondition } from '../../api/validation/csr-validation.js';
import { keyFor, prefixFor } from '../../apiserver/registry/keys.js';
import type { ObjectRegistry, WriteOptions } from '../../apiserver/registry/object-registry.js';
import type { Watch } from '../../storage/store.js';
import { LEAF_DAYS, type ClusterPki } from '../pki/cluster-pki.js';
import { readCertificateRequest } from '../pki/certificates.js';
import { AUTO_APPROVED_REASON, autoApproval } from './approver.js';
import { isOurSigner, signingPlan, type RequestFacts } from './signers.js';

/** What signs: the cluster PKI's issue() (src/auth/pki/cluster-pki.ts). */
export type CsrSigner = Pick<ClusterPki, 'issue'>;

const RETRY_MS = 1000;
const DAY_SECONDS = 24 * 60 * 60;
const FIELD_MANAGER = 'certificate-controller';

export class CertificateController {
  private readonly def: ResourceDefinition;
  private watch: Watch | undefined;
  private readonly queue = new Set<string>();
  private running = false;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly retryNames = new Set<string>();

  constructor(
    private readonly registry: ObjectRegistry,
    private readonly signer: CsrSigner,
  ) {
    this.def = findResource('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
  }

  async start(): Promise<void> {
    if (this.stopped) return;
    const prefix = prefixFor(this.def);
    const { items, revision } = await this.registry.store.list({ prefix });
    this.watch = this.registry.store.watch(
      { prefix, fromRevision: revision },
      (event) => {
        if (event.type !== 'DELETED') this.enqueue(event.object.metadata.name!);
      },
      () => {
        // The watch ended (the store restarted, history compacted): list and watch again.
        this.watch?.stop();
        const again = setTimeout(
          () => void this.start().catch((error: unknown) => console.error(`certificate controller: ${(error as Error).message}`)),
          RETRY_MS,
        );
        again.unref();
      },
    );
    for (const csr of items) this.enqueue(csr.metadata.name!);
  }

  stop(): void {
    this.stopped = true;
    this.watch?.stop();
    if (this.retry) clearTimeout(this.retry);
  }

  /** Resolves once every request queued so far is handled (tests). */
  async idle(): Promise<void> {
    while (this.running || this.queue.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private enqueue(name: string): void {
    if (this.stopped) return;
    this.queue.add(name);
    if (!this.running) void this.drain();
  }

  private later(names: string[]): void {
    for (const name of names) this.retryNames.add(name);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      const due = [...this.retryNames];
      this.retryNames.clear();
      for (const name of due) this.enqueue(name);
    }, RETRY_MS);
    this.retry.unref();
  }

  private async drain(): Promise<void> {
    this.running = true;
    const failed: string[] = [];
    while (this.queue.size > 0 && !this.stopped) {
      const name = this.queue.values().next().value!;
      this.queue.delete(name);
      try {
        await this.handle(name);
      } catch (error) {
        // 409: another server (or a person) wrote first; the watch brings the result back.
        if ((error as { code?: number }).code === 409 || (error as { code?: number }).code === 404) continue;
        console.error(`certificate controller: ${name}: ${(error as Error).message}`);
        failed.push(name);
      }
    }
    this.running = false;
    if (failed.length > 0) this.later(failed);
  }

  private async handle(name: string): Promise<void> {
    const csr = await this.registry.store.get(keyFor(this.def, undefined, name));
    if (!csr || hasCondition(csr, DENIED) || hasCondition(csr, FAILED) || certificateOf(csr)) return;
    const spec = (csr['spec'] ?? {}) as Record<string, unknown>;
    const signerName = typeof spec['signerName'] === 'string' ? spec['signerName'] : '';
    if (!isOurSigner(signerName)) return;
    const pem = decodeBytes(spec['request']) ?? '';
    let request: Awaited<ReturnType<typeof readCertificateRequest>>;
    try {
      request = await readCertificateRequest(pem);
    } catch (error) {
      if (hasCondition(csr, APPROVED)) await this.fail(csr, `the request cannot be used: ${(error as Error).message}`);
      return;
    }
    const facts: RequestFacts = {
      signerName,
      usages: Array.isArray(spec['usages']) ? (spec['usages'] as string[]) : [],
      subject: request.subject,
      altNames: request.altNames,
      username: typeof spec['username'] === 'string' ? spec['username'] : '',
      groups: Array.isArray(spec['groups']) ? (spec['groups'] as string[]) : [],
    };
    if (!hasCondition(csr, APPROVED)) {
      const message = autoApproval(facts);
      if (message) await this.write(csr, 'approval', [{ type: APPROVED, status: 'True', reason: AUTO_APPROVED_REASON, message }]);
      return; // signed when the approval comes back through the watch
    }
    const plan = signingPlan(facts);
    if ('failure' in plan) {
      await this.fail(csr, plan.failure);
      return;
    }
    const requested = typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : LEAF_DAYS * DAY_SECONDS;
    const days = Math.min(requested, LEAF_DAYS * DAY_SECONDS) / DAY_SECONDS;
    const issued = await this.signer.issue(request.subject, plan.usage, { days, publicKey: request.publicKey, altNames: plan.altNames });
    const updated = structuredClone(csr);
    updated['status'] = { ...(updated['status'] as object), certificate: Buffer.from(issued.certPem).toString('base64') };
    await this.registry.update(this.def, undefined, name, updated, this.options('status'));
  }

  private fail(csr: KubeObject, message: string): Promise<void> {
    return this.write(csr, 'status', [{ type: FAILED, status: 'True', reason: 'SignerValidationFailure', message }]);
  }

  /** Adds conditions through a subresource, on the revision read. */
  private async write(csr: KubeObject, subresource: 'approval' | 'status', added: Array<Record<string, unknown>>): Promise<void> {
    const updated = structuredClone(csr);
    const status = (updated['status'] ?? {}) as Record<string, unknown>;
    status['conditions'] = [...(Array.isArray(status['conditions']) ? status['conditions'] : []), ...added];
    updated['status'] = status;
    await this.registry.update(this.def, undefined, csr.metadata.name!, updated, this.options(subresource));
  }

  private options(subresource: string): WriteOptions {
    return { dryRun: false, fieldManager: FIELD_MANAGER, fieldValidation: 'Strict', subresource };
  }
}

function certificateOf(csr: KubeObject): string {
  const status = csr['status'] as { certificate?: unknown } | undefined;
  return typeof status?.certificate === 'string' ? status.certificate : '';
}

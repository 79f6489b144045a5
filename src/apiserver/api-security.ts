// What the API server runs to know who asks and what they may do, in the order it must start:
// the admission steps the registry needs at construction (NodeRestriction, RBAC escalation,
// CertificateSigningRequests, the service-account token projection, pod priority, LimitRanger,
// ResourceQuota), then, once the registry exists, the default roles and the caches and
// controllers that read them (RBAC, its role aggregation, the node authorizer, the certificate
// approver/signer and cleaner, kube-root-ca.crt).
import { createNodeAuthorizer, type NodeAuthorizer } from '../auth/authz/node-authorizer.js';
import { nodeRestriction } from '../auth/authz/node-restriction.js';
import { unionAuthorizer } from '../auth/authz/union.js';
import type { RequestAuthenticator } from '../auth/authn/authenticator.js';
import { ServiceAccountAuthenticator } from '../auth/authn/service-account.js';
import { certificateAdmission } from '../auth/csr/admission.js';
import { CsrCleaner } from '../auth/csr/cleaner.js';
import { CertificateController, type CsrSigner } from '../auth/csr/controller.js';
import { ClusterRoleAggregator, createRbacAuthorizer, ensureDefaultRbac, escalationAdmission, type RbacAuthorizer } from '../auth/rbac/index.js';
import type { ServiceAccountTokens } from '../auth/serviceaccount/tokens.js';
import type { Store } from '../storage/store.js';
import type { AccessControl } from './access.js';
import { PriorityAdmission } from './admission/priority-admission.js';
import { StorageAdmission } from './admission/storage-admission.js';
import { ServiceAccountAdmission } from './admission/service-account-admission.js';
import { LimitRanger } from './admission/limit-ranger.js';
import { AdmissionObjects } from './admission/admission-objects.js';
import { ResourceQuotaAdmission } from './admission/resource-quota.js';
import type { ResourceRequest } from './handlers/context.js';
import { tokenRequestHandler } from './handlers/service-account-token.js';
import type { ObjectRegistry, RegistryOptions } from './registry/object-registry.js';
import { RootCaPublisher } from './root-ca-publisher.js';

export interface ApiSecurityOptions {
  store: Store;
  authenticator: RequestAuthenticator;
  /** The cluster CA's PEM, for kube-root-ca.crt. */
  caPem: string;
  serviceAccounts?: ServiceAccountTokens;
  signer?: CsrSigner;
}

export class ApiSecurity {
  private readonly rbac: RbacAuthorizer;
  private readonly nodes: NodeAuthorizer;
  private aggregator: ClusterRoleAggregator | undefined;
  private certificates: CertificateController | undefined;
  private cleaner: CsrCleaner | undefined;
  private readonly admissionObjects: AdmissionObjects;
  private rootCa: RootCaPublisher | undefined;

  constructor(private readonly options: ApiSecurityOptions) {
    this.rbac = createRbacAuthorizer(options.store);
    this.nodes = createNodeAuthorizer(options.store);
    this.admissionObjects = new AdmissionObjects(options.store);
  }

  /** The admission steps the registry runs on every write. */
  admission(): Pick<RegistryOptions, 'validating' | 'mutating'> {
    const limitRanger = new LimitRanger(this.admissionObjects);
    const priority = new PriorityAdmission(this.options.store, this.admissionObjects);
    const storage = new StorageAdmission(this.admissionObjects);
    return {
      // Priority before ResourceQuota, which may scope by it; ResourceQuota last, as in Kubernetes:
      // it charges the quota, so only a write every other step admitted.
      validating: [
        nodeRestriction,
        escalationAdmission(this.rbac),
        certificateAdmission(this.rbac),
        priority,
        limitRanger,
        storage,
        new ResourceQuotaAdmission(this.options.store, this.admissionObjects),
      ],
      mutating: [limitRanger, ...(this.options.serviceAccounts ? [new ServiceAccountAdmission(this.admissionObjects)] : []), priority, storage],
    };
  }

  /** The subresources it serves: serviceaccounts/token. */
  subresources(): Array<[string, (ctx: ResourceRequest) => Promise<void>]> {
    return this.options.serviceAccounts ? [['/serviceaccounts/token', tokenRequestHandler(this.options.serviceAccounts)]] : [];
  }

  /** Writes the default roles, fills the caches and starts the controllers; the access control for requests. */
  async start(registry: ObjectRegistry): Promise<AccessControl> {
    const { serviceAccounts, signer, store } = this.options;
    await ensureDefaultRbac(registry);
    // Started after the defaults are written: its first list holds them, so no component is refused at start.
    await this.rbac.start();
    this.aggregator = new ClusterRoleAggregator(registry);
    await this.aggregator.start();
    if (signer) {
      this.certificates = new CertificateController(registry, signer);
      await this.certificates.start();
      this.cleaner = new CsrCleaner(registry);
      this.cleaner.start();
    }
    await this.nodes.start();
    await this.admissionObjects.start();
    if (serviceAccounts) {
      this.rootCa = new RootCaPublisher(registry, this.options.caPem);
      await this.rootCa.start();
    }
    // The service-account authenticator reads this server's store, so it joins the chain here.
    const authenticator = serviceAccounts
      ? this.options.authenticator.withTokens([new ServiceAccountAuthenticator(serviceAccounts, store)])
      : this.options.authenticator;
    return {
      authenticator,
      // system:masters may do everything; agents what the node authorizer allows them; everyone
      // (agents too) what RBAC grants.
      authorizer: unionAuthorizer([this.nodes, this.rbac]),
      rules: this.rbac,
      tokens: { apiAudiences: serviceAccounts?.apiAudiences ?? [], authenticateToken: (token, audiences) => authenticator.authenticateToken(token, audiences) },
    };
  }

  async stop(): Promise<void> {
    await this.rootCa?.stop();
    this.aggregator?.stop();
    this.certificates?.stop();
    this.cleaner?.stop();
    this.rbac.stop();
    this.nodes.stop();
    this.admissionObjects.stop();
  }
}

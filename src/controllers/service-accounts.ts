// The service-account controller, as Kubernetes' of the same name: every namespace that is not
// terminating has a ServiceAccount named `default`, made when the namespace appears and made
// again when someone deletes it. Pods name it (spec.serviceAccountName defaults to it) and tools
// such as Helm charts and `kubectl create token` expect it to be there.
import type { KubeObject } from '../api/meta.js';
import { isAlreadyExists, isNotFound, resources, type Informer } from '../client/index.js';
import type { ControllerContext } from './context.js';
import { WorkloadController } from './shape/workload-controller.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

function terminating(namespace: Readonly<KubeObject>): boolean {
  const phase = (namespace['status'] as { phase?: string } | undefined)?.phase;
  return namespace.metadata.deletionTimestamp !== undefined || phase === 'Terminating';
}

export class ServiceAccountsController extends WorkloadController<KubeObject> {
  /** Keys are namespace names. */
  private readonly accounts: Informer<KubeObject>;

  constructor(ctx: ControllerContext) {
    super(ctx, {
      name: 'serviceaccount-controller',
      resource: resources.namespaces,
      workers: 2,
      predicates: { delete: () => false },
    });
    this.accounts = this.watches(resources.serviceaccounts, {
      onDelete: (account) => {
        if (account.metadata.name === DEFAULT_SERVICE_ACCOUNT) this.queue.add(account.metadata.namespace ?? '');
      },
    });
  }

  /** Keys are namespace names: each gets its default ServiceAccount. */
  protected async reconcile(namespaceName: string): Promise<void> {
    const namespace = this.primary.getByName(undefined, namespaceName);
    if (!namespace || terminating(namespace)) return;
    if (this.accounts.getByName(namespaceName, DEFAULT_SERVICE_ACCOUNT)) return;
    try {
      await this.ctx.api.resource(resources.serviceaccounts, namespaceName).create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: namespaceName },
      });
    } catch (error) {
      // Made meanwhile (the cache lags), or the namespace went: nothing left to do.
      if (isAlreadyExists(error) || isNotFound(error)) return;
      throw error;
    }
  }
}

// The service-account controller, as Kubernetes' of the same name: every namespace that is not
// terminating has a ServiceAccount named `default`, made when the namespace appears and made
// again when someone deletes it. Pods name it (spec.serviceAccountName defaults to it) and tools
// such as Helm charts and `kubectl create token` expect it to be there.
import type { KubeObject } from '../api/meta.js';
import { isAlreadyExists, isNotFound, resources, WorkQueue, type Informer, type RunningController } from '../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from './context.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

function terminating(namespace: Readonly<KubeObject>): boolean {
  const phase = (namespace['status'] as { phase?: string } | undefined)?.phase;
  return namespace.metadata.deletionTimestamp !== undefined || phase === 'Terminating';
}

export class ServiceAccountsController implements Controller {
  readonly name = 'serviceaccount-controller';
  /** Keys are namespace names. */
  private readonly queue = new WorkQueue<string>();
  private readonly namespaces: Informer<KubeObject>;
  private readonly accounts: Informer<KubeObject>;
  private running: RunningController | undefined;

  constructor(private readonly ctx: ControllerContext) {
    this.namespaces = ctx.factory.informerFor(resources.namespaces);
    this.accounts = ctx.factory.informerFor(resources.serviceaccounts);
    this.namespaces.addEventHandler({
      onAdd: (namespace) => this.queue.add(namespace.metadata.name ?? ''),
      onUpdate: (_old, namespace) => this.queue.add(namespace.metadata.name ?? ''),
    });
    this.accounts.addEventHandler({
      onDelete: (account) => {
        if (account.metadata.name === DEFAULT_SERVICE_ACCOUNT) this.queue.add(account.metadata.namespace ?? '');
      },
    });
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name, primary: this.namespaces, queue: this.queue,
      reconcile: (name) => this.ensureDefault(name),
    });
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  private async ensureDefault(namespaceName: string): Promise<void> {
    const namespace = this.namespaces.getByName(undefined, namespaceName);
    if (!namespace || terminating(namespace)) return;
    if (this.accounts.getByName(namespaceName, DEFAULT_SERVICE_ACCOUNT)) return;
    try {
      await this.ctx.api.resource(resources.serviceaccounts, namespaceName).create({
        apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: namespaceName },
      });
    } catch (error) {
      // Made meanwhile (the cache lags), or the namespace went: nothing left to do.
      if (isAlreadyExists(error) || isNotFound(error)) return;
      throw error;
    }
  }
}

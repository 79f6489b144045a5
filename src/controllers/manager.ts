// The controller manager: builds the shared context (informers, event and transaction
// recorders), constructs every controller, waits for the caches and starts them. It runs inside
// `drover server` / `drover up`, and alone as `drover controller-manager`.
import { EventRecorder, SharedInformerFactory, consoleLogger, resources, type ApiClient, type Informer, type Logger } from '../client/index.js';
import { ownsEverything, type Controller, type ControllerContext, type ShardOwnership, type ControllerSettings } from './context.js';
import { ShardCoordinator } from './farm/shard-coordinator.js';
import { TransactionRecorder } from './transactions/recorder.js';
import type { Transaction } from './transactions/types.js';

export type ControllerFactory = (ctx: ControllerContext) => Controller;

/** A member of a controller farm: its name, the shard count every member agrees on, and the shard Leases' timing. */
export interface FarmOptions {
  identity: string;
  shards?: number;
  retryPeriodMs?: number;
  leaseDurationSeconds?: number;
  renewDeadlineMs?: number;
}

export interface ControllerManagerOptions {
  api: ApiClient;
  /** The controllers to run; default: all of them. */
  controllers: readonly ControllerFactory[];
  shards?: ShardOwnership;
  /**
   * Join a controller farm: share the work with every other manager of the same farm through
   * shard leases (see farm/shard-coordinator.ts). Without it this manager reconciles everything.
   */
  farm?: FarmOptions;
  /** Informer resync (re-delivers every cached object to the handlers); default 5 min. */
  resyncPeriodMs?: number;
  /** One logger for every controller (tests pass silentLogger); default: a console logger per controller. */
  logger?: Logger;
  /**
   * Informers shared with other components of this process (the scheduler in `drover server`);
   * their owner stops them. Default: the manager's own, with `resyncPeriodMs`.
   */
  informers?: SharedInformerFactory;
  /** Tunables of single controllers (the HPA's sync period). */
  settings?: ControllerSettings;
}

export interface RunningControllerManager {
  ctx: ControllerContext;
  controllers: readonly Controller[];
  stop(): Promise<void>;
}

/** A logger per component: the one given, or a console logger named after the component. */
function loggerFor(options: { logger?: Logger }): (component: string) => Logger {
  const { logger } = options;
  return logger ? () => logger : consoleLogger;
}

export type ContextOptions = Pick<ControllerManagerOptions, 'shards' | 'resyncPeriodMs' | 'logger' | 'informers' | 'settings'>;

/** Informers as controllers want them: resynced every 5 minutes unless told otherwise. */
export function controllerInformers(api: ApiClient, options: Pick<ControllerManagerOptions, 'resyncPeriodMs' | 'logger'> = {}): SharedInformerFactory {
  return new SharedInformerFactory(api, { resyncPeriodMs: options.resyncPeriodMs ?? 5 * 60_000, logger: loggerFor(options)('informers') });
}

/** A context for controllers that share one API client and one informer factory. */
export function createControllerContext(api: ApiClient, options: ContextOptions = {}): ControllerContext {
  const logger = loggerFor(options);
  const factory = options.informers ?? controllerInformers(api, options);
  const txInformer = factory.informerFor<Transaction>(resources.transactions) as Informer<Transaction>;
  const recorders = new Map<string, EventRecorder>();
  return {
    api,
    factory,
    recorder(component) {
      let recorder = recorders.get(component);
      if (!recorder) recorders.set(component, (recorder = new EventRecorder(api, component, { logger: logger(component) })));
      return recorder;
    },
    transactions: new TransactionRecorder(api, txInformer, logger('transactions')),
    shards: options.shards ?? ownsEverything,
    logger,
    ...(options.settings ? { settings: options.settings } : {}),
  };
}

export async function startControllerManager(options: ControllerManagerOptions): Promise<RunningControllerManager> {
  let coordinator: ShardCoordinator | undefined;
  if (options.farm) {
    const farmOptions: ConstructorParameters<typeof ShardCoordinator>[0] = {
      api: options.api,
      identity: options.farm.identity,
      logger: loggerFor(options)('farm'),
    };
    if (options.farm.shards !== undefined) farmOptions.shards = options.farm.shards;
    if (options.farm.retryPeriodMs !== undefined) farmOptions.retryPeriodMs = options.farm.retryPeriodMs;
    if (options.farm.leaseDurationSeconds !== undefined) farmOptions.leaseDurationSeconds = options.farm.leaseDurationSeconds;
    if (options.farm.renewDeadlineMs !== undefined) farmOptions.renewDeadlineMs = options.farm.renewDeadlineMs;
    coordinator = new ShardCoordinator(farmOptions);
  }
  const ctx = createControllerContext(options.api, coordinator ? { ...options, shards: coordinator } : options);
  const controllers = options.controllers.map((make) => make(ctx));
  ctx.factory.start();
  await ctx.factory.waitForSync();
  // Shards are taken after the caches are warm: a shard acquired later re-enqueues its keys.
  await coordinator?.start();
  for (const controller of controllers) controller.start();
  return {
    ctx,
    controllers,
    async stop() {
      await Promise.all(controllers.map((controller) => controller.stop()));
      await coordinator?.stop();
      if (!options.informers) await ctx.factory.stop();
    },
  };
}

// The client library: everything a component needs to talk to the API server and to run
// controllers on top of it.
export { ApiClient, type ApiClientOptions, type RawRequestOptions } from './api-client.js';
export { loadClientConfig, kubeconfigPath, type ClientConfig, type LoadClientConfigOptions, type TlsConfig } from './config.js';
export {
  ApiStatusError,
  isAlreadyExists,
  isConflict,
  isExpired,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isStatus,
  isTooManyRequests,
  type Status,
  type StatusCause,
} from './errors.js';
export {
  ResourceClient,
  formatSelector,
  type DeleteOptions,
  type ListAllOptions,
  type ListOptions,
  type PatchOptions,
  type PatchType,
  type Selector,
  type SelectorOptions,
  type WatchOptions,
  type WriteOptions,
} from './resource-client.js';
export { apiVersionOf, resourceForKind, resourceOf, resourcePath, resources, type ResourceRef } from './resources.js';
export { type BookmarkObject, type WatchEnd, type WatchEvent, type WatchHandle } from './watch-stream.js';
export { keyOf, objectKey, splitKey } from './keys.js';
export { Informer, type EventHandlers, type InformerOptions, type InformerStats } from './informer.js';
export { SharedInformerFactory, type InformerScope, type SharedInformerFactoryOptions } from './shared-informer-factory.js';
export { type IndexFunc } from './object-cache.js';
export { byLabel, indexers } from './indexers.js';
export { WorkQueue, type WorkQueueOptions } from './work-queue.js';
export { BucketRateLimiter, ExponentialRateLimiter, MaxOfRateLimiter, type RateLimiter } from './rate-limiter.js';
export { logRetry, runController, TerminalError, type ControllerOptions, type ReconcileResult, type RunningController } from './controller-runner.js';
export { Expectations, type ExpectationsOptions } from './expectations.js';
export { LeaseLock, leaseIsLive, type Lease, type LeaseAttempt, type LeaseSpec } from './lease-lock.js';
export { LeaderElector, type LeaderElectorOptions } from './leader-elector.js';
export { EventRecorder, type EventRecorderOptions, type EventType, type ObjectReference } from './event-recorder.js';
export { consoleLogger, silentLogger, type Logger } from './logger.js';

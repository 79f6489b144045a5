// The etcd client the store talks through, and the one place where etcd's failures become the
// store's errors. Every unary call carries a deadline and a timer of our own: an etcd member that
// is down, partitioned or stopped must surface as StoreUnavailableError (503), never as a request
// that hangs or a 500.
import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, handleWhen, noop, retry } from 'cockatiel';
import { ClientClosedError, Etcd3, GRPCUnavailableError, isRecoverableError, type IOptions } from 'etcd3';
import { RevisionExpiredError, StoreClosedError, StoreError, StoreUnavailableError, ValueTooLargeError } from '../errors.js';

export interface EtcdClientOptions {
  /** Client URLs of the members, e.g. http://127.0.0.1:2379. */
  endpoints: string[];
  /** The most one call may take before it fails as unavailable. Default 5 s. */
  requestTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

// How far a list or watch reply may grow: etcd sends up to 2 GiB; grpc-js refuses past 4 MiB by
// default, which one page of large objects exceeds.
const UNLIMITED = -1;

// HTTP/2's default flow-control window (64 KiB, per stream and per connection) lets etcd send
// only that much before this process acknowledges it, and every watch shares one stream. A pod
// event with its previous value is some 8 KiB, so under load (a busy event loop acknowledges
// late) watch events queued in etcd by the thousand: the bench's pod watch lagged 7,000
// revisions, 6 to 10 s. A large window lets etcd stream them as they commit.
const FLOW_CONTROL_WINDOW_BYTES = 16 * 2 ** 20;

export function createEtcdClient(options: EtcdClientOptions): Etcd3 {
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const hosts = options.endpoints.map(normalizeEndpoint);
  const clientOptions: IOptions = {
    hosts,
    grpcOptions: {
      'grpc.max_receive_message_length': UNLIMITED,
      'grpc.max_send_message_length': UNLIMITED,
      // Finds a dead member under an idle watch stream; etcd refuses pings more often than 5 s.
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW_BYTES,
    },
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + timeoutMs }),
    faultHandling: {
      // With several members, a member that fails a call is skipped for a second (its circuit
      // opens at once) and the call is tried again on the others, so one member down costs no
      // failed request. Alone, a member gets three chances before calls fail fast for a second.
      global: hosts.length > 1 ? retry(handleWhen(neverSent), { maxAttempts: hosts.length - 1 }) : noop,
      host: () => circuitBreaker(handleWhen(isRecoverableError), { halfOpenAfter: 1_000, breaker: new ConsecutiveBreaker(hosts.length > 1 ? 1 : 3) }),
    },
  };
  return new Etcd3(clientOptions);
}

/**
 * Only a call that never reached a member is tried again: a write that timed out may still
 * commit, and its retry would then report KeyExistsError or a conflict for the caller's own
 * write (etcd's Go client retries mutations on the same condition only).
 */
function neverSent(error: Error): boolean {
  return error instanceof GRPCUnavailableError && /No connection established|ECONNREFUSED|no address available/i.test(error.message);
}

/** etcd3 wants host:port or a URL; a bare `127.0.0.1:2379` is taken as http. */
export function normalizeEndpoint(endpoint: string): string {
  const trimmed = endpoint.trim();
  if (trimmed === '') throw new Error('an etcd endpoint is empty');
  return /^[a-z]+:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`;
}

export function isCompactedError(error: unknown): boolean {
  return error instanceof Error && /required revision has been compacted/.test(error.message);
}

/**
 * Runs one etcd call with a hard bound on its duration and maps what it throws: the store's own
 * errors pass through, a closed client is StoreClosedError, and anything else (unavailable,
 * deadline exceeded, circuit open, no leader) is StoreUnavailableError naming the endpoints.
 */
export async function callEtcd<T>(what: string, endpoints: readonly string[], timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    // A little past the gRPC deadline, for what the deadline does not cover (waiting for a channel).
    timer = setTimeout(() => reject(new StoreUnavailableError(`etcd (${endpoints.join(',')}) did not answer ${what} within ${timeoutMs} ms`)), timeoutMs + 500);
  });
  try {
    return await Promise.race([call(), bound]);
  } catch (error) {
    throw translateError(error, what, endpoints);
  } finally {
    clearTimeout(timer);
  }
}

export function translateError(error: unknown, what: string, endpoints: readonly string[]): Error {
  if (error instanceof StoreError) return error;
  if (error instanceof ClientClosedError) return new StoreClosedError();
  if (isCompactedError(error)) return new RevisionExpiredError(0, 0);
  const message = error instanceof Error ? error.message : String(error);
  if (/request is too large/.test(message)) return new ValueTooLargeError('', 0);
  if (error instanceof BrokenCircuitError) {
    return new StoreUnavailableError(`etcd (${endpoints.join(',')}) is not answering (its last calls failed), so ${what} was not tried`);
  }
  return new StoreUnavailableError(`etcd (${endpoints.join(',')}) failed ${what}: ${message}`);
}

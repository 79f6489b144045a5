// core/v1 handlers shared by probes and lifecycle hooks: exec, httpGet, tcpSocket, grpc, sleep.
import { atomicList, field, int32, int64, intOrString, named, enumStr, str, stringList, struct } from './builders.js';

const CORE = 'io.k8s.api.core.v1';

export const ExecAction = named(
  `${CORE}.ExecAction`,
  struct('Runs a command inside the container.', {
    command: stringList(
      "Command line to run, with the container's working directory as cwd and root (/) as the filesystem root. It is exec'd directly, not run in a shell: wrap it in a shell explicitly to use pipes or variables. Exit status 0 is success.",
    ),
  }),
);

export const HTTPHeader = named(
  `${CORE}.HTTPHeader`,
  struct(
    'A custom HTTP header.',
    {
      name: str('Header name; normalised when sent, so "-" and "_" are equivalent.'),
      value: str('Header value.'),
    },
    ['name', 'value'],
  ),
);

export const HTTPGetAction = named(
  `${CORE}.HTTPGetAction`,
  struct(
    'Sends an HTTP GET request to the container.',
    {
      path: str('Path of the request. Defaults to "/".'),
      port: intOrString('Number (1-65535) or IANA name of a port of the container to connect to.'),
      host: str('Host to connect to; defaults to the pod IP. Set a "Host" header in httpHeaders to send a different virtual host instead.'),
      scheme: enumStr('Scheme of the request: HTTP or HTTPS. Defaults to HTTP.', ['HTTP', 'HTTPS']),
      httpHeaders: atomicList('Extra headers to send. Repeated headers are allowed.', HTTPHeader),
    },
    ['port'],
  ),
);

export const TCPSocketAction = named(
  `${CORE}.TCPSocketAction`,
  struct(
    'Opens a TCP connection to the container; success when it connects.',
    {
      port: intOrString('Number (1-65535) or IANA name of the port to connect to.'),
      host: str('Host to connect to; defaults to the pod IP.'),
    },
    ['port'],
  ),
);

export const GRPCAction = named(
  `${CORE}.GRPCAction`,
  struct(
    'Calls the gRPC health checking protocol on the container.',
    {
      port: int32('Port of the gRPC service (1-65535).'),
      service: str('Service name passed in the HealthCheckRequest; empty checks the server as a whole.', { default: '' }),
    },
    ['port'],
  ),
);

export const SleepAction = named(
  `${CORE}.SleepAction`,
  struct(
    'Pauses for a number of seconds.',
    {
      seconds: int64('How long to sleep, in seconds.'),
    },
    ['seconds'],
  ),
);

export const Probe = named(
  `${CORE}.Probe`,
  struct('A periodic check of a container: exactly one of exec, httpGet, tcpSocket or grpc, with timing settings.', {
    exec: field(ExecAction, 'Run a command in the container.'),
    httpGet: field(HTTPGetAction, 'Send an HTTP GET; a status code in 200-399 is success.'),
    tcpSocket: field(TCPSocketAction, 'Open a TCP connection.'),
    grpc: field(GRPCAction, 'Call the gRPC health check service.'),
    initialDelaySeconds: int32('Seconds after the container started before the first probe. Defaults to 0.', { minimum: 0 }),
    timeoutSeconds: int32('Seconds after which a probe attempt times out. Defaults to 1; minimum 1.', { minimum: 0 }),
    periodSeconds: int32('How often (in seconds) to probe. Defaults to 10; minimum 1.', { minimum: 0 }),
    successThreshold: int32('Consecutive successes needed to count as healthy after a failure. Defaults to 1; must be 1 for liveness and startup probes.', {
      minimum: 0,
    }),
    failureThreshold: int32('Consecutive failures needed to count as failed. Defaults to 3; minimum 1.', { minimum: 0 }),
    terminationGracePeriodSeconds: int64(
      "Grace period used when this probe fails and the container is killed, overriding the pod's terminationGracePeriodSeconds. Only for liveness and startup probes; minimum 1.",
    ),
  }),
);

export const LifecycleHandler = named(
  `${CORE}.LifecycleHandler`,
  struct('An action run at a lifecycle event: exactly one of exec, httpGet, tcpSocket or sleep.', {
    exec: field(ExecAction, 'Run a command in the container.'),
    httpGet: field(HTTPGetAction, 'Send an HTTP GET request.'),
    tcpSocket: field(TCPSocketAction, 'Deprecated; kept for compatibility and not run.'),
    sleep: field(SleepAction, 'Pause for a while.'),
  }),
);

export const Lifecycle = named(
  `${CORE}.Lifecycle`,
  struct('Actions the runtime takes in response to container lifecycle events.', {
    postStart: field(
      LifecycleHandler,
      'Runs right after the container is created. If it fails, the container is terminated and restarted according to the restart policy. The container is not marked running until it completes.',
    ),
    preStop: field(
      LifecycleHandler,
      'Runs right before the container is terminated (API deletion, probe failure, preemption, ...). The termination grace period countdown starts before it runs; the container is killed when the grace period ends even if the hook has not finished.',
    ),
  }),
);

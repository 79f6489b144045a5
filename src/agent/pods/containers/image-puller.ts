// Images under the pull policies, with the kubelet's failure story: a failed pull is
// ErrImagePull, then ImagePullBackOff until the back-off (10 s doubling to 5 min) lets the
// next attempt go. The engine's own words stay in the message.
import { RuntimeUnavailableError } from '../../runtime/errors.js';
import type { ContainerRuntime, ImageInfo, PullPolicy } from '../../runtime/runtime.js';
import { KeyedBackoff } from '../../../util/keyed-backoff.js';
import type { PodEvents } from '../events.js';
import type { Waiting } from '../record.js';
import type { Container, Pod } from '../../../api/core/index.js';

export type PullResult = { image: ImageInfo } | { waiting: Waiting; retryInMs: number };

interface Failure {
  at: number;
  message: string;
}

export function pullPolicyOf(container: Container): PullPolicy {
  if (container.imagePullPolicy) return container.imagePullPolicy;
  const image = container.image ?? '';
  const tag = image.lastIndexOf(':') > image.lastIndexOf('/') ? image.slice(image.lastIndexOf(':') + 1) : '';
  return image.includes('@') || (tag !== '' && tag !== 'latest') ? 'IfNotPresent' : 'Always';
}

export class ImagePuller {
  private readonly backoff: KeyedBackoff;
  private readonly failures = new Map<string, Failure>();

  constructor(
    private readonly events: PodEvents,
    backoff?: KeyedBackoff,
  ) {
    this.backoff = backoff ?? new KeyedBackoff();
  }

  async ensure(runtime: ContainerRuntime, pod: Pod, container: Container, isInit: boolean): Promise<PullResult> {
    const image = container.image ?? '';
    const policy = pullPolicyOf(container);
    const event = (type: 'Normal' | 'Warning', reason: string, message: string): void =>
      this.events.container(pod, container.name, isInit, type, reason, message);
    // Host processes have no image: nothing to pull, nothing to report.
    if (runtime.name === 'process') return { image: await runtime.pullImage(image, policy) };
    if (policy !== 'Always') {
      const present = await runtime.inspectImage(image);
      if (present) {
        event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
        return { image: present };
      }
      if (policy === 'Never') {
        const message = `Container image "${image}" is not present with pull policy of Never`;
        event('Warning', 'ErrImageNeverPull', message);
        return { waiting: { reason: 'ErrImageNeverPull', message }, retryInMs: 10_000 };
      }
    }
    const key = `${pod.metadata.uid ?? ''}/${image}`;
    const last = this.failures.get(key);
    const remaining = last ? this.backoff.remaining(key, last.at) : 0;
    if (last && remaining > 0) {
      const message = `Back-off pulling image "${image}": ErrImagePull: ${last.message}`;
      event('Normal', 'BackOff', `Back-off pulling image "${image}"`);
      return { waiting: { reason: 'ImagePullBackOff', message }, retryInMs: remaining };
    }
    return this.pull(runtime, key, image, policy, event);
  }

  private async pull(
    runtime: ContainerRuntime,
    key: string,
    image: string,
    policy: PullPolicy,
    event: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
  ): Promise<PullResult> {
    event('Normal', 'Pulling', `Pulling image "${image}"`);
    const started = Date.now();
    try {
      const info = await runtime.pullImage(image, policy);
      const ms = Date.now() - started;
      this.failures.delete(key);
      event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${ms}ms (${ms}ms including waiting). Image size: ${info.sizeBytes} bytes.`);
      return { image: info };
    } catch (error) {
      if (error instanceof RuntimeUnavailableError) throw error;
      const message = (error as Error).message;
      const now = Date.now();
      this.backoff.next(key, now);
      this.failures.set(key, { at: now, message });
      event('Warning', 'Failed', `Failed to pull image "${image}": ${message}`);
      event('Warning', 'Failed', 'Error: ErrImagePull');
      // Soon after, the status moves on to ImagePullBackOff for the rest of the wait.
      return { waiting: { reason: 'ErrImagePull', message }, retryInMs: 1000 };
    }
  }

  forgetPod(uid: string): void {
    this.backoff.resetPrefix(`${uid}/`);
    for (const key of this.failures.keys()) if (key.startsWith(`${uid}/`)) this.failures.delete(key);
  }
}

// Timestamps as Kubernetes writes them: metav1.Time has second precision (RFC 3339, "Z"),
// MicroTime (leases, events) has microseconds.

export { metaTime as k8sTime, microTime } from '../../api/meta.js';

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

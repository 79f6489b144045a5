// Timestamps as Kubernetes writes them: metav1.Time has second precision (RFC 3339, "Z"),
// MicroTime (leases, events) has microseconds.

export function k8sTime(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function microTime(date: Date = new Date()): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

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

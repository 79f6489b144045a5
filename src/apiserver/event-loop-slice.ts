// The write of a large object (a ConfigMap of 20,000 keys) takes 100-300 ms of the event loop
// from decoding to the store: defaults, validation, a server-side apply's merge and the field
// ownership it records each walk every key. Run in one piece, that is how long every other
// client waits. Between those stages, a write that has held the loop longer than a slice lets
// the others in first; a small write never yields, so it pays nothing.
const SLICE_MS = 10;

export class EventLoopSlice {
  private since = performance.now();

  /** Yields to the event loop when this request has run a whole slice since it last did. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

// The write of a large object (a ConfigMap of 20,000 keys) takes 100-300 ms of the event loop
// from decoding to the store: defaults, validation, a server-side apply's merge and the field
// ownership it records each walk every field. Run in one piece, that is how long every other
// client waits. So a large write lets the others in between those stages.
//
// What makes a write large is how many fields its body or the object it changes has, which is
// what those walks cost; a small write never yields. (Yielding by elapsed time instead also sent
// small writes to later turns under load, where their commits no longer batched with the
// others': bench:api's creates fell from about 7,000/s to 5,000/s.)

/** More fields than this, and each stage of a write is a turn of the event loop of its own. */
export const LARGE_WRITE_FIELDS = 2_000;

export class EventLoopSlice {
  private large = false;
  /** The value counted last (a large one sets `large`, which ends every later count at once). */
  private counted: unknown;

  /**
   * Counts `value`'s members and items, up to the limit: a few microseconds at most. It walks
   * with for...in and stops at the limit; Object.values would first copy every member of a
   * 40,000-key map (a few milliseconds, on every stage of a large write).
   */
  consider(value: unknown): void {
    // A write's body is counted when it is decoded; the registry, handed the same slice, asks again.
    if (this.large || value === this.counted) return;
    this.counted = value;
    let fields = 0;
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const current = stack.pop();
      if (current === null || typeof current !== 'object') continue;
      for (const key in current) {
        if (++fields > LARGE_WRITE_FIELDS) {
          this.large = true;
          return;
        }
        const child = (current as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') stack.push(child);
      }
    }
  }

  /** Between stages: a large write lets the requests waiting behind it go first. */
  async pause(): Promise<void> {
    if (this.large) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

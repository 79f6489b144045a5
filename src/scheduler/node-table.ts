// The numbers every filter and score reads for every node, packed side by side in one
// Float64Array. At 5,000 nodes, per-node objects with nested resource objects and boxed
// doubles cost a cache miss per field and made filtering memory-bound (≈ 1 µs a node);
// consecutive slots for consecutive candidates let the CPU stream them instead.

export const ALLOC_MILLI_CPU = 0;
export const ALLOC_MEMORY = 1;
export const ALLOC_EPHEMERAL = 2;
export const ALLOC_PODS = 3;
export const REQ_MILLI_CPU = 4;
export const REQ_MEMORY = 5;
export const REQ_EPHEMERAL = 6;
export const POD_COUNT = 7;
export const NON_ZERO_MILLI_CPU = 8;
export const NON_ZERO_MEMORY = 9;
export const STRIDE = 10;

export class NodeTable {
  data = new Float64Array(STRIDE * 64);
  private readonly released: number[] = [];
  private used = 0;

  /** A zeroed slot; returns its base offset into `data`. */
  allocate(): number {
    const reused = this.released.pop();
    if (reused !== undefined) return reused;
    const base = this.used;
    this.used += STRIDE;
    if (this.used > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    return base;
  }

  release(base: number): void {
    this.data.fill(0, base, base + STRIDE);
    this.released.push(base);
  }
}

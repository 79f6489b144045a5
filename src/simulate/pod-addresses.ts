// Pod IPs for hollow nodes. They are written into pod status (and so into Endpoints) but no
// packet is ever meant for them. They come from the loopback range all the same, so that even
// a component that does dial one (a real agent's service rules, a test) stays on this machine:
// each hollow node gets a block of 127.64.0.0-127.255.255.255, as a kubelet gets a podCIDR, and
// its pods the lowest free addresses in it.
const FIRST = ((127 << 24) | (64 << 16)) >>> 0;
const LAST = 0x7fffffff;

/** Bits of a node's block: room for maxPods pods besides the network and broadcast addresses, at least a /24. */
export function blockBits(maxPods: number): number {
  return Math.max(8, Math.ceil(Math.log2(maxPods + 2)));
}

/** How many nodes' blocks fit in the range. */
export function maxNodesFor(maxPods: number): number {
  return Math.floor((LAST - FIRST + 1) / 2 ** blockBits(maxPods));
}

export function ipv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

export class PodAddresses {
  private readonly base: number;
  private readonly size: number;
  private readonly byUid = new Map<string, number>();
  private readonly taken = new Set<number>();

  constructor(nodeIndex: number, maxPods: number) {
    const bits = blockBits(maxPods);
    this.size = 2 ** bits;
    this.base = FIRST + nodeIndex * this.size;
    if (nodeIndex < 0 || this.base + this.size - 1 > LAST)
      throw new Error(`node ${nodeIndex}: no pod address block left (at most ${maxNodesFor(maxPods)} nodes)`);
  }

  /** The block, as a CIDR. */
  get cidr(): string {
    return `${ipv4(this.base)}/${32 - Math.log2(this.size)}`;
  }

  /**
   * The pod's address: the one it has, the one it already reports (a restarted simulation
   * keeps it), or the lowest free one; undefined when the block is full.
   */
  addressOf(uid: string, reported?: string): string | undefined {
    const known = this.byUid.get(uid);
    if (known !== undefined) return ipv4(this.base + known);
    const slot = this.slotOf(reported) ?? this.lowestFree();
    if (slot === undefined) return undefined;
    this.byUid.set(uid, slot);
    this.taken.add(slot);
    return ipv4(this.base + slot);
  }

  release(uid: string): void {
    const slot = this.byUid.get(uid);
    if (slot === undefined) return;
    this.byUid.delete(uid);
    this.taken.delete(slot);
  }

  private slotOf(address: string | undefined): number | undefined {
    const value = address === undefined ? undefined : parseIpv4(address);
    if (value === undefined) return undefined;
    const slot = value - this.base;
    return slot >= 1 && slot < this.size - 1 && !this.taken.has(slot) ? slot : undefined;
  }

  private lowestFree(): number | undefined {
    for (let slot = 1; slot < this.size - 1; slot++) if (!this.taken.has(slot)) return slot;
    return undefined;
  }
}

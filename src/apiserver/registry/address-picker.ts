// How an address is picked for a Service that asked for none: a cluster IP's offset in the
// service range, or a node port. Kubernetes keeps the low end of each range for addresses asked
// for by value (KEP-3070 for cluster IPs, KEP-3668 for node ports): addresses picked unasked come
// from above that static band while any is free there, so a Service given a well-known address
// (a DNS server's, a fixed node port) finds it free however many Services came before it.

/** The values first..last, both included; empty when last < first. */
export interface Span {
  first: number;
  last: number;
}

/**
 * How many values at the low end of a range of `size` are its static band: min(max(16,
 * size/16), 256) for cluster IPs and min(max(16, size/32), 128) for node ports, as Kubernetes.
 */
export function staticBand(size: number, kind: 'ip' | 'port'): number {
  const [step, most] = kind === 'ip' ? [16, 256] : [32, 128];
  return Math.min(Math.max(16, Math.floor(size / step)), most);
}

/** The first value of `span`, going round from `start`, that `free` accepts. */
function firstFree(span: Span, start: number, free: (value: number) => boolean): number | undefined {
  const size = span.last - span.first + 1;
  const from = start >= span.first && start <= span.last ? start - span.first : 0;
  for (let i = 0; i < size; i++) {
    const value = span.first + ((from + i) % size);
    if (free(value)) return value;
  }
  return undefined;
}

export class AddressPicker {
  /** Where the next search above the band starts, so a pick does not rescan the range. */
  private next: number;

  /**
   * `above` is the range past the static band, `band` the part of the band picks may fall back to.
   * With `spread` the first search starts at a random place above the band: servers sharing a
   * store then seldom race for one address.
   */
  constructor(
    private readonly above: Span,
    private readonly band: Span,
    spread: boolean,
  ) {
    const size = above.last - above.first + 1;
    this.next = above.first + (spread && size > 0 ? Math.floor(Math.random() * size) : 0);
  }

  /** A value `free` accepts: above the band if any is, else in the band; undefined when none is. */
  pick(free: (value: number) => boolean): number | undefined {
    const above = firstFree(this.above, this.next, free);
    if (above === undefined) return firstFree(this.band, this.band.first, free);
    this.next = above + 1;
    return above;
  }
}

// The order of a merged list in a strategic merge patch, as the Kubernetes API server gives it
// (design: "preserve order in strategic merge patch"). Items the patch names come in the order
// the patch asks for ($setElementOrder, else the patch list itself). Items only the server has
// keep their live order and are slotted between the patch's items: a server-only item goes
// before the next patch item when the live list had it earlier. A new item has no live
// position, so it wins ties: adding a container with `kubectl patch` puts it first, exactly as
// Kubernetes does.

/** Where an item stands in some reference list, or -1 when it is not there. */
export type Position = (item: unknown) => number;

/**
 * Orders `merged`.
 * @param wanted position in the order the patch asks for; -1 marks a server-only item
 * @param live position in the live list before the patch
 */
export function orderMergedList(merged: unknown[], wantedPosition: Position, livePosition: Position): unknown[] {
  // Positions are computed once per item: identities can be costly to derive.
  const wanted = memoize(merged, wantedPosition);
  const live = memoize(merged, livePosition);
  const fromPatch = merged.filter((item) => wanted(item) >= 0);
  const serverOnly = merged.filter((item) => wanted(item) < 0);
  fromPatch.sort((a, b) => wanted(a) - wanted(b));
  serverOnly.sort((a, b) => orderable(live(a)) - orderable(live(b)));
  return interleave(serverOnly, fromPatch, live);
}

/** A Position over a list of identities (first occurrence wins); undefined identities are nowhere. */
export function positionIn<K>(ids: readonly K[], identity: (item: unknown) => K | undefined): Position {
  const positions = new Map<K, number>();
  ids.forEach((id, i) => {
    if (!positions.has(id)) positions.set(id, i);
  });
  return (item) => {
    const id = identity(item);
    return id === undefined ? -1 : (positions.get(id) ?? -1);
  };
}

function memoize(items: unknown[], position: Position): Position {
  const known = new Map<unknown, number>(items.map((item) => [item, position(item)]));
  return (item) => known.get(item) ?? position(item);
}

/** Unknown positions sort last (Array.prototype.sort is stable, so ties keep their order). */
function orderable(position: number): number {
  return position < 0 ? Number.MAX_SAFE_INTEGER : position;
}

/**
 * Merges two ordered lists keeping each one's order. A server-only item is taken before the
 * current patch item only when both have a live position and the server item's is earlier.
 */
function interleave(serverOnly: unknown[], fromPatch: unknown[], live: Position): unknown[] {
  const out: unknown[] = [];
  let s = 0;
  let p = 0;
  while (s < serverOnly.length && p < fromPatch.length) {
    const serverPos = live(serverOnly[s]);
    const patchPos = live(fromPatch[p]);
    if (serverPos >= 0 && patchPos >= 0 && serverPos < patchPos) out.push(serverOnly[s++]);
    else out.push(fromPatch[p++]);
  }
  return out.concat(serverOnly.slice(s), fromPatch.slice(p));
}

// Sets of completion indexes and their text form in JobStatus.completedIndexes: ordered
// intervals, "1,3-5,7", with a run of two written as "3,4" (Kubernetes' orderedIntervals).

/** Parses "0-2,4"; malformed or out-of-range parts are ignored, as Kubernetes does. */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  if (!text) return out;
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!match) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let i = first; i <= last && i < completions; i++) out.add(i);
  }
  return out;
}

export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    const first = sorted[i]!;
    let last = first;
    while (i + 1 < sorted.length && sorted[i + 1] === last + 1) last = sorted[++i]!;
    i++;
    if (last === first) parts.push(String(first));
    else if (last === first + 1) parts.push(`${first},${last}`);
    else parts.push(`${first}-${last}`);
  }
  return parts.join(',');
}

// A list that puts only the rows in view (and a few either side) in the DOM, so 5,000 pods
// scroll as smoothly as 50: rows have one fixed height and sit at their offset in a tall spacer.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

const OVERSCAN = 8;

interface Props<T> {
  items: readonly T[];
  rowHeight: number;
  /** The list's height in pixels (it scrolls inside it). */
  height: number;
  row: (item: T, index: number) => ComponentChildren;
  keyOf: (item: T) => string;
  label: string;
}

export function VirtualList<T>({ items, rowHeight, height, row, keyOf, label }: Props<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return undefined;
    const onScroll = () => setScrollTop(element.scrollTop);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visible = items.slice(first, last);
  return (
    <div ref={viewport} class="virtual-list" style={{ height: `${height}px` }} role="list" aria-label={label} data-total={items.length}>
      <div class="virtual-spacer" style={{ height: `${items.length * rowHeight}px` }}>
        {visible.map((item, i) => (
          <div key={keyOf(item)} class="virtual-row" role="listitem" style={{ top: `${(first + i) * rowHeight}px`, height: `${rowHeight}px` }}>
            {row(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}

// A page-sized virtualized table with a name filter: the shape of every long list here.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { KubeObject } from '../api/types';
import type { Snapshot } from '../api/watch';
import { StatusBanner } from './status-banner';
import { VirtualList } from './virtual-list';

const ROW_HEIGHT = 28;
const LIST_HEIGHT = 560;

interface Props {
  title: string;
  snapshot: Snapshot;
  header: string[];
  row: (object: KubeObject) => ComponentChildren[];
  keyOf: (object: KubeObject) => string;
}

export function FilteredList({ title, snapshot, header, row, keyOf }: Props) {
  const [filter, setFilter] = useState('');
  const shown = filter ? snapshot.items.filter((o) => keyOf(o).includes(filter)) : snapshot.items;
  const columns = { gridTemplateColumns: `repeat(${header.length}, minmax(0, 1fr))` };
  return (
    <section>
      <h1>
        {title}{' '}
        <span class="muted count" data-count={shown.length}>
          {snapshot.loaded ? `${shown.length} of ${snapshot.items.length}` : 'loading…'}
        </span>
      </h1>
      <StatusBanner message={snapshot.error} />
      <input
        type="search"
        placeholder="filter by namespace/name"
        value={filter}
        onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
        aria-label={`filter ${title}`}
      />
      <div class="table-head" style={columns}>
        {header.map((h) => (
          <span key={h}>{h}</span>
        ))}
      </div>
      <VirtualList
        items={shown}
        rowHeight={ROW_HEIGHT}
        height={LIST_HEIGHT}
        keyOf={keyOf}
        label={title}
        row={(object) => (
          <div class="table-row" style={columns}>
            {row(object).map((cell, i) => (
              <span key={i}>{cell}</span>
            ))}
          </div>
        )}
      />
    </section>
  );
}

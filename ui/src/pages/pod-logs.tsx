// Live logs: the pods/log stream read with fetch as it arrives (follow=true), per container, the
// previous instance's on request, and a search that keeps only matching lines.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from '../api/client';
import { followLog } from '../api/logs';
import { StatusBanner } from '../components/status-banner';

const KEPT_LINES = 5000;
const FLUSH_MS = 100;

export function PodLogs({ namespace, name, containers }: { namespace: string; name: string; containers: string[] }) {
  const [container, setContainer] = useState(containers[0] ?? '');
  const [follow, setFollow] = useState(true);
  const [previous, setPrevious] = useState(false);
  const [search, setSearch] = useState('');
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [streaming, setStreaming] = useState(false);
  const view = useRef<HTMLPreElement>(null);

  useEffect(() => {
    const abort = new AbortController();
    let pending: string[] = [];
    let kept: string[] = [];
    const flush = () => {
      if (pending.length === 0) return;
      kept = [...kept, ...pending].slice(-KEPT_LINES);
      pending = [];
      setLines(kept);
    };
    const timer = setInterval(flush, FLUSH_MS);
    setLines([]);
    setError(undefined);
    setStreaming(true);
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/log`;
    const live = follow && !previous;
    void followLog(path, { container, previous, follow: live }, (line) => pending.push(line), abort.signal)
      .catch((failure: unknown) => abort.signal.aborted || setError(errorMessage(failure)))
      .finally(() => {
        flush();
        if (!abort.signal.aborted) setStreaming(false);
      });
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  }, [namespace, name, container, follow, previous]);

  // Stay at the bottom while following, as `kubectl logs -f` does.
  useEffect(() => {
    const element = view.current;
    if (element && follow) element.scrollTop = element.scrollHeight;
  }, [lines, follow]);

  const shown = search ? lines.filter((line) => line.toLowerCase().includes(search.toLowerCase())) : lines;
  return (
    <div class="logs">
      <div class="toolbar">
        {containers.length > 1 && (
          <select value={container} onChange={(e) => setContainer((e.target as HTMLSelectElement).value)} aria-label="container">
            {containers.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
        <label>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} /> follow
        </label>
        <label>
          <input type="checkbox" checked={previous} onChange={(e) => setPrevious((e.target as HTMLInputElement).checked)} /> previous
        </label>
        <input type="search" placeholder="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} aria-label="search logs" />
        <span class="muted small">{streaming && follow && !previous ? 'streaming' : `${shown.length} lines`}</span>
      </div>
      <StatusBanner message={error} />
      <pre ref={view} class="log-view" aria-label="logs" data-lines={shown.length}>
        {shown.join('\n')}
      </pre>
    </div>
  );
}

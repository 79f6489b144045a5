// The pod as the API serves it in YAML (Accept: application/yaml), read again when it changes.
import { useEffect, useState } from 'preact/hooks';
import { errorMessage, getText } from '../api/client';
import { StatusBanner } from '../components/status-banner';

export function PodYaml({ namespace, name, resourceVersion }: { namespace: string; name: string; resourceVersion: string }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    getText(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`, 'application/yaml')
      .then((yaml) => live && (setText(yaml), setError(undefined)))
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [namespace, name, resourceVersion]);
  return (
    <div>
      <StatusBanner message={error} />
      <pre class="yaml" aria-label="yaml">
        {text}
      </pre>
    </div>
  );
}

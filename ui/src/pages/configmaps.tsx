// ConfigMaps in every namespace, virtualized: thousands scroll without freezing the page.
import { age } from '../api/pods';
import { PATHS } from '../api/resources';
import { keyOf } from '../api/types';
import { useCollection } from '../api/watch';
import { FilteredList } from '../components/filtered-list';

export function ConfigMaps() {
  const configmaps = useCollection(PATHS.configmaps);
  return (
    <FilteredList
      title="ConfigMaps"
      snapshot={configmaps}
      keyOf={keyOf}
      header={['Namespace', 'Name', 'Keys', 'Age']}
      row={(cm) => [
        cm.metadata.namespace ?? '',
        cm.metadata.name,
        String(Object.keys((cm['data'] as object | undefined) ?? {}).length),
        age(cm.metadata.creationTimestamp),
      ]}
    />
  );
}

// Turns ?labelSelector= and ?fieldSelector= into one predicate the store evaluates per object.
import type { KubeObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { parseFieldSelector, parseLabelSelector, SelectorError } from '../../api/selectors/index.js';
import type { ObjectFilter } from '../../storage/store.js';
import { badRequest } from '../errors.js';

type FieldGetter = (object: KubeObject) => string | undefined;

const metadataFields: Record<string, FieldGetter> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace ?? '',
};

export function buildFilter(def: ResourceDefinition, labelSelector: string | null, fieldSelector: string | null): ObjectFilter | undefined {
  const predicates: ObjectFilter[] = [];
  try {
    if (labelSelector) {
      const labels = parseLabelSelector(labelSelector);
      if (!labels.isEmpty()) predicates.push((object) => labels.matches(object.metadata.labels));
    }
    if (fieldSelector) {
      const fields = parseFieldSelector(fieldSelector);
      const getters = new Map<string, FieldGetter>();
      for (const { field } of fields.requirements) {
        const getter = metadataFields[field] ?? def.fieldSelectors[field];
        if (!getter) throw badRequest(`field label not supported: ${field}`);
        getters.set(field, getter);
      }
      if (fields.requirements.length > 0) {
        predicates.push((object) => fields.matches((field) => getters.get(field)?.(object)));
      }
    }
  } catch (error) {
    if (error instanceof SelectorError) throw badRequest(error.message);
    throw error;
  }
  if (predicates.length === 0) return undefined;
  if (predicates.length === 1) return predicates[0];
  return (object) => predicates.every((predicate) => predicate(object));
}

// core/v1 reference messages shared by pods, volumes, services and events.
import { message, PTR, str } from './schema.js';

export const localObjectReference = message('LocalObjectReference', { 1: str('name') });

export const objectReference = message('ObjectReference', {
  1: str('kind'),
  2: str('namespace'),
  3: str('name'),
  4: str('uid'),
  5: str('apiVersion'),
  6: str('resourceVersion'),
  7: str('fieldPath'),
});

export const typedLocalObjectReference = message('TypedLocalObjectReference', {
  1: str('apiGroup', PTR),
  2: str('kind'),
  3: str('name'),
});

export const typedObjectReference = message('TypedObjectReference', {
  1: str('apiGroup', PTR),
  2: str('kind'),
  3: str('name'),
  4: str('namespace', PTR),
});

export const secretReference = message('SecretReference', { 1: str('name'), 2: str('namespace') });

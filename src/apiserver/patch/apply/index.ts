// Server-side apply and managedFields tracking.
export { applyServerSide, applyServerSideInSlices, type ApplyOptions } from './apply.js';
export { updateManagedFields, type UpdateOptions } from './update.js';
export { ApplyConflictError, ApplyInvalidError, describeManager, type FieldConflict } from './errors.js';
export { FieldSet } from './field-set.js';
export { objectFieldSet } from './object-fields.js';
export { diffObjects, type FieldChanges } from './object-diff.js';
export type { FieldScope } from './field-scope.js';
export { displayPath, fieldElement, keyElement, valueElement } from './path-element.js';

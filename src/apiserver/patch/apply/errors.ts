// The two ways an apply request fails on its own terms. Both are ApiErrors, so the server
// answers with the Status body kubectl expects; the conflict text is Kubernetes' own, because
// kubectl prints it verbatim and users search for it.
import { ApiError, type StatusCause } from '../../errors.js';
import type { Operation } from './managed-entries.js';

export interface FieldConflict {
  /** The other manager's name, e.g. `kubectl-client-side-apply`. */
  manager: string;
  /** The contested field, as Kubernetes prints it: `.spec.replicas`. */
  field: string;
  operation: Operation;
  subresource?: string;
  apiVersion?: string;
}

/** 409: the applied configuration changes fields another manager owns, and force was not set. */
export class ApplyConflictError extends ApiError {
  readonly conflicts: FieldConflict[];

  constructor(conflicts: FieldConflict[]) {
    super(409, 'Conflict', conflictMessage(conflicts), { causes: conflicts.map(conflictCause) });
    this.name = 'ApplyConflictError';
    this.conflicts = conflicts;
  }
}

/** 400: the applied configuration cannot be applied at all (e.g. a list item without its key). */
export class ApplyInvalidError extends ApiError {
  constructor(message: string) {
    super(400, 'BadRequest', message);
    this.name = 'ApplyInvalidError';
  }
}

/**
 * How Kubernetes names a manager in conflicts: Update entries carry their API version (and a
 * subresource when there is one), Apply entries only the name.
 */
export function describeManager(conflict: Omit<FieldConflict, 'field'>): string {
  let text = JSON.stringify(conflict.manager);
  if (conflict.subresource) text += ` with subresource ${JSON.stringify(conflict.subresource)}`;
  if (conflict.operation === 'Update') text += ` using ${conflict.apiVersion ?? ''}`;
  return text;
}

function conflictCause(conflict: FieldConflict): StatusCause & { reason: string } {
  return { reason: 'FieldManagerConflict', message: `conflict with ${describeManager(conflict)}`, field: conflict.field };
}

function conflictMessage(conflicts: readonly FieldConflict[]): string {
  const [only] = conflicts;
  if (conflicts.length === 1 && only) return `Apply failed with 1 conflict: conflict with ${describeManager(only)}: ${only.field}`;
  const byManager = new Map<string, string[]>();
  for (const conflict of conflicts) {
    const name = describeManager(conflict);
    byManager.set(name, [...(byManager.get(name) ?? []), conflict.field]);
  }
  const lines: string[] = [];
  for (const name of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${name}:`);
    for (const field of byManager.get(name) ?? []) lines.push(`- ${field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

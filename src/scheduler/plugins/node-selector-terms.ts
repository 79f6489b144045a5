// Compiled NodeSelectorTerms (core/v1 node affinity): matchExpressions over node labels with
// In/NotIn/Exists/DoesNotExist/Gt/Lt, and matchFields over `metadata.name`. Compiled once per
// pod, then run per node as closures.
import { compileRequirement, newRequirement, type LabelOperator } from '../../api/selectors/label-requirement.js';
import type { NodeInfo } from '../node-info.js';
import { list, record, text } from '../object-access.js';

export type NodeTest = (node: NodeInfo) => boolean;

const OPERATORS: ReadonlyMap<string, LabelOperator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
  ['Gt', 'gt'],
  ['Lt', 'lt'],
]);

const NEVER: NodeTest = () => false;

function stringValues(value: unknown): string[] {
  return list(value).filter((v): v is string => typeof v === 'string');
}

function labelTest(expression: unknown): NodeTest {
  const e = record(expression);
  const op = OPERATORS.get(text(e['operator']) ?? '');
  if (op === undefined) return NEVER;
  try {
    const test = compileRequirement(newRequirement(text(e['key']) ?? '', op, stringValues(e['values'])));
    return (node) => test(node.labels);
  } catch {
    // An invalid requirement makes its term match nothing, as Kubernetes treats it.
    return NEVER;
  }
}

function fieldTest(expression: unknown): NodeTest {
  const e = record(expression);
  if (e['key'] !== 'metadata.name') return NEVER;
  const names = new Set(stringValues(e['values']));
  if (e['operator'] === 'In') return (node) => names.has(node.name);
  if (e['operator'] === 'NotIn') return (node) => !names.has(node.name);
  return NEVER;
}

/** One term: all its requirements must hold; a term without any matches no node. */
export function compileTerm(term: unknown): NodeTest {
  const t = record(term);
  const tests = [...list(t['matchExpressions']).map(labelTest), ...list(t['matchFields']).map(fieldTest)];
  if (tests.length === 0) return NEVER;
  if (tests.length === 1) return tests[0]!;
  return (node) => {
    for (const test of tests) if (!test(node)) return false;
    return true;
  };
}

/** A NodeSelector: any of its terms. */
export function compileNodeSelector(selector: unknown): NodeTest {
  const terms = list(record(selector)['nodeSelectorTerms']).map(compileTerm);
  if (terms.length === 1) return terms[0]!;
  return (node) => {
    for (const term of terms) if (term(node)) return true;
    return false;
  };
}

/**
 * The node names a NodeSelector pins the pod to, when every term lists them with
 * `matchFields metadata.name In` (DaemonSet pods); undefined when any node may match.
 */
export function pinnedNodeNames(selector: unknown): Set<string> | undefined {
  const names = new Set<string>();
  const terms = list(record(selector)['nodeSelectorTerms']);
  if (terms.length === 0) return undefined;
  for (const term of terms) {
    const pin = list(record(term)['matchFields'])
      .map(record)
      .find((f) => f['key'] === 'metadata.name' && f['operator'] === 'In');
    if (pin === undefined) return undefined;
    for (const name of stringValues(pin['values'])) names.add(name);
  }
  return names;
}

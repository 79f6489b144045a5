// Node affinity as Kubernetes' component-helpers/scheduling/corev1/nodeaffinity reads it:
// NodeSelectorTerms are ORed, the requirements of a term ANDed; matchExpressions test node
// labels with In/NotIn/Exists/DoesNotExist/Gt/Lt, matchFields test `metadata.name` with In/NotIn.
// A pod's required node affinity is its nodeSelector and its required terms together. Shared
// by the scheduler's NodeAffinity plugin and the DaemonSet controller; compiled once per pod
// (or template), then run per node as closures. Input is read defensively: the API validated
// it, but a malformed field reads as absent and never throws.
import { compileRequirement, newRequirement, type LabelOperator } from '../selectors/label-requirement.js';

export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface NodeSelectorRequirement {
  key: string;
  /** A NodeSelectorOperator; any other string makes the requirement match nothing. */
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms?: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

/** The parts of a PodSpec that constrain its node by labels and name. */
export interface NodeConstraints {
  nodeSelector?: Record<string, string>;
  affinity?: { nodeAffinity?: NodeAffinity };
}

/** What node affinity reads of a node. The scheduler's NodeInfo is one. */
export interface NodeFields {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

export type NodeTest = (node: NodeFields) => boolean;

const OPERATORS: ReadonlyMap<string, LabelOperator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
  ['Gt', 'gt'],
  ['Lt', 'lt'],
]);

const NEVER: NodeTest = () => false;

type Fields = Readonly<Record<string, unknown>>;
const EMPTY: Fields = Object.freeze({});
const record = (value: unknown): Fields => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : EMPTY);
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const strings = (value: unknown): string[] => list(value).filter((v): v is string => typeof v === 'string');

function labelTest(expression: unknown): NodeTest {
  const e = record(expression);
  const op = OPERATORS.get(typeof e['operator'] === 'string' ? e['operator'] : '');
  if (op === undefined) return NEVER;
  try {
    const test = compileRequirement(newRequirement(typeof e['key'] === 'string' ? e['key'] : '', op, strings(e['values'])));
    return (node) => test(node.labels);
  } catch {
    // An invalid requirement makes its term match nothing, as Kubernetes treats it.
    return NEVER;
  }
}

function fieldTest(expression: unknown): NodeTest {
  const e = record(expression);
  if (e['key'] !== 'metadata.name') return NEVER;
  const names = new Set(strings(e['values']));
  if (e['operator'] === 'In') return (node) => names.has(node.name);
  if (e['operator'] === 'NotIn') return (node) => !names.has(node.name);
  return NEVER;
}

/** One term: all its requirements must hold; a term without any matches no node. */
export function compileNodeSelectorTerm(term: Readonly<NodeSelectorTerm> | undefined): NodeTest {
  const t = record(term);
  const tests = [...list(t['matchExpressions']).map(labelTest), ...list(t['matchFields']).map(fieldTest)];
  if (tests.length === 0) return NEVER;
  if (tests.length === 1) return tests[0]!;
  return (node) => {
    for (const test of tests) if (!test(node)) return false;
    return true;
  };
}

/** A NodeSelector: any of its terms; one without terms matches no node. */
export function compileNodeSelector(selector: Readonly<NodeSelector>): NodeTest {
  const terms = list(record(selector)['nodeSelectorTerms']).map((term) => compileNodeSelectorTerm(term as NodeSelectorTerm));
  if (terms.length === 1) return terms[0]!;
  return (node) => {
    for (const term of terms) if (term(node)) return true;
    return false;
  };
}

function labelsTest(selector: unknown): NodeTest | undefined {
  // Non-string values are dropped, as a malformed field reads as absent.
  const entries = Object.entries(record(selector)).filter((e): e is [string, string] => typeof e[1] === 'string');
  if (entries.length === 0) return undefined;
  return (node) => {
    for (const [key, value] of entries) if (node.labels[key] !== value) return false;
    return true;
  };
}

/**
 * The pod's nodeSelector and required node affinity together (GetRequiredNodeAffinity);
 * undefined when neither constrains the node.
 */
export function compileRequiredNodeAffinity(spec: Readonly<NodeConstraints>): NodeTest | undefined {
  const labels = labelsTest(spec.nodeSelector);
  const selector = record(record(spec.affinity)['nodeAffinity'])['requiredDuringSchedulingIgnoredDuringExecution'];
  const affinity = selector === undefined ? undefined : compileNodeSelector(selector as NodeSelector);
  if (labels === undefined || affinity === undefined) return labels ?? affinity;
  return (node) => labels(node) && affinity(node);
}

/**
 * The node names a NodeSelector pins the pod to, when every term lists them with
 * `matchFields metadata.name In` (DaemonSet pods); undefined when any node may match.
 */
export function pinnedNodeNames(selector: Readonly<NodeSelector>): Set<string> | undefined {
  const names = new Set<string>();
  const terms = list(record(selector)['nodeSelectorTerms']);
  if (terms.length === 0) return undefined;
  for (const term of terms) {
    const pin = list(record(term)['matchFields'])
      .map(record)
      .find((f) => f['key'] === 'metadata.name' && f['operator'] === 'In');
    if (pin === undefined) return undefined;
    for (const name of strings(pin['values'])) names.add(name);
  }
  return names;
}

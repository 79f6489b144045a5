import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compileNodeSelector,
  compileNodeSelectorTerm,
  compileRequiredNodeAffinity,
  pinnedNodeNames,
  type NodeFields,
  type NodeSelectorTerm,
} from './node-affinity.js';

const nodes: NodeFields[] = [
  { name: 'a', labels: { zone: 'eu-1', disk: 'ssd', cores: '16' } },
  { name: 'b', labels: { zone: 'eu-2', cores: '4' } },
  { name: 'c', labels: { zone: 'us-1', disk: 'hdd', cores: 'many' } },
];

const matching = (test: (node: NodeFields) => boolean) => nodes.filter(test).map((n) => n.name);
const selector = (...terms: unknown[]) => compileNodeSelector({ nodeSelectorTerms: terms as NodeSelectorTerm[] });
const expression = (key: string, operator: string, values?: string[]) => ({ matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] });

describe('NodeSelectorTerm matchExpressions', () => {
  it('In, NotIn, Exists, DoesNotExist', () => {
    assert.deepEqual(matching(selector(expression('zone', 'In', ['eu-1', 'eu-2']))), ['a', 'b']);
    assert.deepEqual(matching(selector(expression('zone', 'NotIn', ['eu-1']))), ['b', 'c']);
    assert.deepEqual(matching(selector(expression('disk', 'Exists'))), ['a', 'c']);
    assert.deepEqual(matching(selector(expression('disk', 'DoesNotExist'))), ['b']);
  });

  it('Gt and Lt compare integers; a non-integer label never matches', () => {
    assert.deepEqual(matching(selector(expression('cores', 'Gt', ['8']))), ['a']);
    assert.deepEqual(matching(selector(expression('cores', 'Lt', ['8']))), ['b']);
  });

  it('an unknown operator or an invalid requirement matches nothing', () => {
    assert.deepEqual(matching(selector(expression('zone', 'Like', ['eu-1']))), []);
    assert.deepEqual(matching(selector(expression('zone', 'In'))), [], 'In without values');
    assert.deepEqual(matching(selector(expression('cores', 'Gt', ['eight']))), []);
  });
});

describe('NodeSelectorTerm matchFields', () => {
  it('metadata.name In and NotIn; any other field or operator matches nothing', () => {
    assert.deepEqual(matching(selector({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] })), ['b']);
    assert.deepEqual(matching(selector({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['b'] }] })), ['a', 'c']);
    assert.deepEqual(matching(selector({ matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['b'] }] })), []);
    assert.deepEqual(matching(selector({ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] })), []);
  });
});

describe('NodeSelector', () => {
  it('terms are ORed, requirements within a term ANDed, and an empty term matches nothing', () => {
    const either = selector(
      {
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['eu-1'] },
          { key: 'disk', operator: 'In', values: ['hdd'] },
        ],
      },
      expression('zone', 'In', ['us-1']),
    );
    assert.deepEqual(matching(either), ['c']);
    const labelAndName = selector({
      matchExpressions: [{ key: 'disk', operator: 'Exists' }],
      matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['a'] }],
    });
    assert.deepEqual(matching(labelAndName), ['c']);
    assert.deepEqual(matching(selector({})), []);
    assert.deepEqual(matching(selector({}, expression('disk', 'Exists'))), ['a', 'c']);
    assert.deepEqual(matching(compileNodeSelectorTerm({})), []);
  });

  it('no terms match no node', () => {
    assert.deepEqual(matching(selector()), []);
    assert.deepEqual(matching(compileNodeSelector({})), []);
  });

  it('reads malformed input as absent instead of throwing', () => {
    assert.deepEqual(matching(compileNodeSelector({ nodeSelectorTerms: 'all' } as never)), []);
    assert.deepEqual(matching(selector({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-2', 7] }] })), ['b']);
    assert.deepEqual(matching(compileNodeSelectorTerm(undefined)), []);
  });
});

describe('compileRequiredNodeAffinity', () => {
  const required = (...terms: unknown[]) => ({ requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms as NodeSelectorTerm[] } });

  it('is undefined when neither nodeSelector nor required affinity constrains the node', () => {
    assert.equal(compileRequiredNodeAffinity({}), undefined);
    assert.equal(compileRequiredNodeAffinity({ nodeSelector: {}, affinity: {} }), undefined);
  });

  it('nodeSelector needs every label', () => {
    assert.deepEqual(matching(compileRequiredNodeAffinity({ nodeSelector: { disk: 'ssd' } })!), ['a']);
    assert.deepEqual(matching(compileRequiredNodeAffinity({ nodeSelector: { disk: 'ssd', zone: 'eu-2' } })!), []);
  });

  it('nodeSelector and required affinity must both hold', () => {
    const both = compileRequiredNodeAffinity({ nodeSelector: { disk: 'ssd' }, affinity: { nodeAffinity: required(expression('zone', 'In', ['eu-2'])) } });
    assert.deepEqual(matching(both!), []);
    const ssdInEu = compileRequiredNodeAffinity({
      nodeSelector: { disk: 'ssd' },
      affinity: { nodeAffinity: required(expression('zone', 'In', ['eu-1', 'eu-2'])) },
    });
    assert.deepEqual(matching(ssdInEu!), ['a']);
    // Required terms that are there but empty match nothing, unlike absent ones.
    assert.deepEqual(matching(compileRequiredNodeAffinity({ affinity: { nodeAffinity: required() } })!), []);
  });
});

describe('pinnedNodeNames', () => {
  it('collects the names when every term pins with metadata.name In', () => {
    const pin = (name: string) => ({ matchFields: [{ key: 'metadata.name', operator: 'In', values: [name] }] });
    assert.deepEqual(pinnedNodeNames({ nodeSelectorTerms: [pin('a'), pin('b')] }), new Set(['a', 'b']));
    assert.equal(pinnedNodeNames({ nodeSelectorTerms: [pin('a'), expression('zone', 'In', ['eu-1'])] }), undefined);
    assert.equal(pinnedNodeNames({ nodeSelectorTerms: [] }), undefined);
    assert.equal(pinnedNodeNames({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['a'] }] }] }), undefined);
  });
});

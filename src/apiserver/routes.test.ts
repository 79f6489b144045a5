import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseResourcePath, splitRequestTarget } from './routes.js';

describe('parseResourcePath', () => {
  it('parses core, named-group, namespaced and cluster paths', () => {
    assert.deepEqual(parseResourcePath('/api/v1/pods'), { group: '', version: 'v1', plural: 'pods', legacyWatch: false });
    assert.deepEqual(parseResourcePath('/api/v1/namespaces/default/pods/web/log'), {
      group: '',
      version: 'v1',
      plural: 'pods',
      namespace: 'default',
      name: 'web',
      subresource: 'log',
      legacyWatch: false,
    });
    assert.deepEqual(parseResourcePath('/apis/apps/v1/namespaces/x/deployments/d/scale'), {
      group: 'apps',
      version: 'v1',
      plural: 'deployments',
      namespace: 'x',
      name: 'd',
      subresource: 'scale',
      legacyWatch: false,
    });
    assert.deepEqual(parseResourcePath('/api/v1/nodes/n1/status'), {
      group: '',
      version: 'v1',
      plural: 'nodes',
      name: 'n1',
      subresource: 'status',
      legacyWatch: false,
    });
  });

  it('tells namespace subresources from namespaced collections', () => {
    assert.deepEqual(parseResourcePath('/api/v1/namespaces/team'), { group: '', version: 'v1', plural: 'namespaces', name: 'team', legacyWatch: false });
    assert.deepEqual(parseResourcePath('/api/v1/namespaces/team/finalize'), {
      group: '',
      version: 'v1',
      plural: 'namespaces',
      name: 'team',
      subresource: 'finalize',
      legacyWatch: false,
    });
    assert.deepEqual(parseResourcePath('/api/v1/namespaces/team/configmaps'), {
      group: '',
      version: 'v1',
      plural: 'configmaps',
      namespace: 'team',
      legacyWatch: false,
    });
  });

  it('understands the legacy watch prefix and rejects unknown shapes', () => {
    assert.equal(parseResourcePath('/api/v1/watch/namespaces/a/pods')?.legacyWatch, true);
    assert.equal(parseResourcePath('/version'), undefined);
    assert.throws(() => parseResourcePath('/api/v1/a/b/c/d'), /could not find/);
  });
});

describe('splitRequestTarget', () => {
  it('takes the path of an origin-form and an absolute-form target alike, dot segments as sent', () => {
    for (const target of ['/api/v1/namespaces/a/pods/../../b/pods?limit=1#x', 'https://127.0.0.1:6443/api/v1/namespaces/a/pods/../../b/pods?limit=1']) {
      const { pathname, query } = splitRequestTarget(target);
      assert.equal(pathname, '/api/v1/namespaces/a/pods/../../b/pods');
      assert.equal(query.get('limit'), '1');
    }
    assert.equal(splitRequestTarget('http://host').pathname, '/');
  });
});

// Namespace labels read as a Pod Security policy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { policyFromLabels, uniformPolicy } from './policy.js';

const P = 'pod-security.kubernetes.io/';

describe('Pod Security labels', () => {
  it('takes each mode from its label and the rest from the defaults', () => {
    const { policy, errors } = policyFromLabels({ [`${P}audit`]: 'restricted', [`${P}audit-version`]: 'v1.29' }, uniformPolicy('baseline'));
    assert.deepEqual(errors, []);
    assert.deepEqual(policy, {
      enforce: { level: 'baseline', version: 'latest' },
      warn: { level: 'baseline', version: 'latest' },
      audit: { level: 'restricted', version: 'v1.29' },
    });
  });

  it('warns at the enforce level when no warn label asks otherwise (Kubernetes 1.26+)', () => {
    const enforced = policyFromLabels({ [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.30' }, uniformPolicy('privileged')).policy;
    assert.deepEqual(enforced.warn, { level: 'restricted', version: 'v1.30' });
    const explicit = policyFromLabels({ [`${P}enforce`]: 'restricted', [`${P}warn`]: 'privileged' }, uniformPolicy('privileged')).policy;
    assert.equal(explicit.warn.level, 'privileged');
  });

  it('reports bad labels; enforce fails closed, warn and audit open', () => {
    const { policy, errors } = policyFromLabels(
      { [`${P}enforce`]: 'strict', [`${P}warn`]: 'loud', [`${P}audit-version`]: 'v2.0' },
      uniformPolicy('privileged'),
    );
    assert.deepEqual(
      errors.map((e) => `${e.field}: ${e.message}`),
      [
        `metadata.labels[${P}enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted`,
        `metadata.labels[${P}warn]: Invalid value: "loud": must be one of privileged, baseline, restricted`,
        `metadata.labels[${P}audit-version]: Invalid value: "v2.0": must be "latest" or "v1.x"`,
      ],
    );
    assert.equal(policy.enforce.level, 'restricted');
    assert.equal(policy.warn.level, 'privileged');
    assert.equal(policy.audit.version, 'latest');
  });
});

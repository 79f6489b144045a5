import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  everythingSelector,
  fromLabelSelectorObject,
  labelSelectorToString,
  nothingSelector,
  parseLabelSelector,
  selectorFromSet,
  SelectorError,
} from './index.js';

const web = { app: 'web', tier: 'frontend', env: 'prod' };
const db = { app: 'db', tier: 'backend' };

function rejects(text: string, message: RegExp | string): void {
  assert.throws(
    () => parseLabelSelector(text),
    (error: unknown) => {
      assert.ok(error instanceof SelectorError, `expected SelectorError for ${JSON.stringify(text)}`);
      if (typeof message === 'string') assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    },
  );
}

describe('parseLabelSelector: operators', () => {
  const cases: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['app=web', web, true],
    ['app=web', db, false],
    ['app==web', web, true],
    ['app==web', db, false],
    ['app!=web', web, false],
    ['app!=web', db, true],
    ['env!=prod', db, true], // a missing key is "not equal"
    ['app in (web,db)', db, true],
    ['app in (web)', { app: 'api' }, false],
    ['env in (prod)', db, false], // a missing key is not "in"
    ['app notin (web,api)', db, true],
    ['app notin (web,api)', web, false],
    ['env notin (prod)', db, true], // a missing key is "not in"
    ['env', web, true],
    ['env', db, false],
    ['!env', web, false],
    ['!env', db, true],
    ['app=web,tier=frontend', web, true],
    ['app=web,tier=backend', web, false],
    ['app=web', undefined, false],
    ['!app', undefined, true],
    ['app=', { app: '' }, true],
    ['app=', {}, false],
    ['app in (,web)', { app: '' }, true],
    ['replicas>2', { replicas: '3' }, true],
    ['replicas>2', { replicas: '2' }, false],
    ['replicas<2', { replicas: '1' }, true],
    ['replicas<2', { replicas: 'x' }, false],
    ['replicas<2', {}, false],
  ];
  for (const [text, labels, expected] of cases) {
    it(`${text} on ${JSON.stringify(labels)} is ${expected}`, () => {
      assert.equal(parseLabelSelector(text).matches(labels), expected);
    });
  }

  it('keeps in/notin as keys or values where no operator is expected', () => {
    const selector = parseLabelSelector('in in (in,notin)');
    assert.equal(selector.matches({ in: 'notin' }), true);
    assert.equal(selector.toString(), 'in in (in,notin)');
  });

  it('does not mistake Object.prototype members for labels', () => {
    assert.equal(parseLabelSelector('constructor').matches({}), false);
    assert.equal(parseLabelSelector('!toString').matches({}), true);
    assert.equal(parseLabelSelector('constructor!=x').matches({}), true);
    assert.equal(parseLabelSelector('hasOwnProperty in (a)').matches({}), false);
  });

  it('uses a set for long value lists', () => {
    const values = Array.from({ length: 50 }, (_, i) => `v${i}`);
    const selector = parseLabelSelector(`k in (${values.join(',')})`);
    assert.equal(selector.matches({ k: 'v49' }), true);
    assert.equal(selector.matches({ k: 'v50' }), false);
    assert.equal(parseLabelSelector(`k notin (${values.join(',')})`).matches({ k: 'v7' }), false);
  });
});

describe('parseLabelSelector: syntax', () => {
  it('treats empty and blank text as match-everything', () => {
    for (const text of ['', '   ', '\t\n']) {
      const selector = parseLabelSelector(text);
      assert.equal(selector.isEmpty(), true);
      assert.equal(selector.matchesNothing(), false);
      assert.equal(selector.matches(undefined), true);
      assert.equal(selector.toString(), '');
    }
  });

  it('tolerates whitespace around operators, values and commas', () => {
    const selector = parseLabelSelector('  app = web ,  tier notin ( a , b ) ,\t!x , env  ');
    assert.equal(selector.toString(), 'app=web,env,tier notin (a,b),!x');
    assert.equal(selector.matches(web), true);
    assert.equal(parseLabelSelector('app in(web)').matches(web), true);
  });

  it('prints canonically: sorted keys, sorted unique values, operators as written', () => {
    assert.equal(parseLabelSelector('z=1,a==2,m!=3').toString(), 'a==2,m!=3,z=1');
    assert.equal(parseLabelSelector('x in (foo,,baz),y,z notin ()').toString(), 'x in (,baz,foo),y,z notin ()');
    assert.equal(parseLabelSelector('k in (b,a,b)').toString(), 'k in (a,b)');
    assert.equal(parseLabelSelector('k>5,j<3').toString(), 'j<3,k>5');
    assert.equal(parseLabelSelector('example.com/role=db').toString(), 'example.com/role=db');
  });

  it('round-trips through its own string form', () => {
    for (const text of ['a=b,c!=d', 'x in (a,b),!y,z', 'k notin (,v)', 'p==q']) {
      const once = parseLabelSelector(text).toString();
      assert.equal(parseLabelSelector(once).toString(), once);
    }
  });

  it('exposes requirements', () => {
    assert.deepEqual(parseLabelSelector('b in (y,x),a').requirements, [
      { key: 'a', operator: 'exists', values: [] },
      { key: 'b', operator: 'in', values: ['x', 'y'] },
    ]);
  });

  it('reports the value a key must have', () => {
    const selector = parseLabelSelector('app=web,tier in (fe),env in (a,b),x!=y');
    assert.equal(selector.requiresExactMatch('app'), 'web');
    assert.equal(selector.requiresExactMatch('tier'), 'fe');
    assert.equal(selector.requiresExactMatch('env'), undefined);
    assert.equal(selector.requiresExactMatch('x'), undefined);
    assert.equal(selector.requiresExactMatch('missing'), undefined);
  });
});

describe('parseLabelSelector: errors', () => {
  it('rejects malformed structure with Kubernetes wording', () => {
    rejects('a=b,', "found '', expected: identifier after ','");
    rejects(',a', "found ',', expected: !, identifier, or 'end of string'");
    rejects('(a)', "found '(', expected: !, identifier, or 'end of string'");
    rejects('a=b c=d', "found 'c', expected: ',' or 'end of string'");
    rejects('!a=b', "found '=', expected: ',' or 'end of string'");
    rejects('a=b=c', "found '=', expected: ',' or 'end of string'");
    rejects('!', "unable to parse requirement: found '', expected: identifier");
    rejects('a b', /^unable to parse requirement: found 'b', expected: '=', '!=', '==', 'in', 'notin'/);
    rejects('a in b', "unable to parse requirement: found 'b' expected: '('");
    rejects('a in (b', "unable to parse requirement: found '', expected: ',' or ')'");
    rejects('a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'");
    rejects('a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier");
    rejects('a = (b)', "unable to parse requirement: found '(', expected: identifier");
  });

  it('rejects invalid label values', () => {
    rejects(
      'app=-x',
      'unable to parse requirement: values[0][app]: Invalid value: "-x": a valid label must be an empty string or consist of ' +
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue', " +
        "or 'my_value', or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
    rejects('app in (b,-x)', /^unable to parse requirement: values\[0\]\[app\]: Invalid value: "-x"/);
    rejects(`app=${'v'.repeat(64)}`, /Invalid value: "v{64}": must be no more than 63 characters/);
    rejects('app=a/b', /values\[0\]\[app\]: Invalid value: "a\/b"/);
  });

  it('rejects invalid label keys', () => {
    rejects('-x=y', /^unable to parse requirement: key: Invalid value: "-x": name part must consist of alphanumeric characters/);
    rejects('Example.com/x', /key: Invalid value: "Example.com\/x": prefix part a lowercase RFC 1123 subdomain/);
    rejects('/x', /prefix part must be non-empty/);
    rejects('x/', /name part must be non-empty/);
    rejects('a/b/c', /a qualified name must consist of .* with an optional DNS subdomain prefix and '\/'/);
    rejects(`${'k'.repeat(64)}`, /name part must be no more than 63 characters/);
    rejects('!-x', /key: Invalid value: "-x"/);
  });

  it('rejects non-integer bounds for > and <', () => {
    rejects('a>x', "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer");
    rejects('a<', /for 'Gt', 'Lt' operators, the value must be an integer/);
  });

  it('is a SelectorError with a stable code', () => {
    try {
      parseLabelSelector('a in (');
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(error instanceof SelectorError);
      assert.equal(error.code, 'InvalidSelector');
      assert.equal(error.name, 'SelectorError');
    }
  });
});

describe('fromLabelSelectorObject', () => {
  it('combines matchLabels and matchExpressions', () => {
    const selector = fromLabelSelectorObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['frontend', 'edge'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'team', operator: 'Exists', values: [] },
      ],
    });
    assert.equal(selector.toString(), 'app=web,!canary,env notin (dev),team,tier in (edge,frontend)');
    assert.equal(selector.matches({ ...web, team: 'a' }), true);
    assert.equal(selector.matches(web), false);
    assert.equal(selector.matches({ ...web, team: 'a', canary: 'true' }), false);
  });

  it('matches nothing for a missing selector and everything for an empty one', () => {
    for (const missing of [undefined, null]) {
      const selector = fromLabelSelectorObject(missing);
      assert.equal(selector.matchesNothing(), true);
      assert.equal(selector.isEmpty(), false);
      assert.equal(selector.matches(web), false);
      assert.equal(selector.toString(), '');
    }
    for (const empty of [{}, { matchLabels: {}, matchExpressions: [] }, { matchLabels: null }]) {
      const selector = fromLabelSelectorObject(empty);
      assert.equal(selector.isEmpty(), true);
      assert.equal(selector.matches(web), true);
    }
  });

  it('rejects bad operators, counts, keys and values', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] }, /"Equals" is not a valid label selector operator/],
      [{ matchExpressions: [{ key: 'a', operator: 'constructor' }] }, /"constructor" is not a valid label selector operator/],
      [
        { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
        /values: Invalid value: \[\]string\{\}: for 'in', 'notin' operators, values set can't be empty/,
      ],
      [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, /values set must be empty for exists and does not exist/],
      [{ matchLabels: { 'bad key': 'x' } }, /key: Invalid value: "bad key"/],
      [{ matchLabels: { app: 'bad value' } }, /values\[0\]\[app\]: Invalid value: "bad value"/],
      [{ matchLabels: { app: 3 } }, /matchLabels\[app\]: must be a string/],
      [{ matchExpressions: 'x' }, /matchExpressions: must be a list/],
      [{ matchExpressions: [{ operator: 'Exists' }] }, /matchExpressions\[0\].key: must be a string/],
      [{ matchExpressions: [{ key: 'a', operator: 'In', values: [1] }] }, /matchExpressions\[0\].values: must be a list of strings/],
    ];
    for (const [object, message] of bad) {
      assert.throws(
        () => fromLabelSelectorObject(object as Record<string, unknown>),
        (e: unknown) => e instanceof SelectorError && message.test(e.message),
      );
    }
  });

  it('aggregates several problems of one requirement', () => {
    assert.throws(
      () => fromLabelSelectorObject({ matchExpressions: [{ key: '-k', operator: 'In', values: ['-v'] }] }),
      (e: unknown) => e instanceof SelectorError && /^\[key: Invalid value: "-k": .*, values\[0\]\[-k\]: Invalid value: "-v": .*\]$/.test(e.message),
    );
  });

  it('prints as labelSelectorToString for /scale', () => {
    assert.equal(labelSelectorToString({ matchLabels: { b: '2', a: '1' } }), 'a=1,b=2');
    assert.equal(labelSelectorToString({}), '');
    assert.equal(labelSelectorToString(undefined), '');
  });
});

describe('selectorFromSet, everythingSelector, nothingSelector', () => {
  it('requires every label of the set', () => {
    const selector = selectorFromSet({ tier: 'frontend', app: 'web' });
    assert.equal(selector.toString(), 'app=web,tier=frontend');
    assert.equal(selector.matches(web), true);
    assert.equal(selector.matches(db), false);
  });

  it('matches everything for an empty or missing set', () => {
    assert.equal(selectorFromSet({}).isEmpty(), true);
    assert.equal(selectorFromSet(undefined).matches(db), true);
  });

  it('rejects invalid labels', () => {
    assert.throws(() => selectorFromSet({ app: '-x' }), SelectorError);
  });

  it('provides the two trivial selectors', () => {
    assert.equal(everythingSelector().matches(undefined), true);
    assert.equal(nothingSelector().matches({}), false);
  });
});

/**
 * CI/CD inputs: a file's `spec:inputs` header, the values checked against it (GitLab's messages),
 * `$[[ ]]` interpolation with its functions, and `include:` passing `inputs:` to a file's header.
 */
import { describe, expect, it } from 'vitest';
import { expandIncludes, type IncludeReader, type IncludeSource } from '../../shared/ci/config/includes';
import { loadCiYaml } from '../../shared/ci/config/parse';

const load = (text: string, inputs?: Record<string, unknown>, variables: Record<string, string> = {}, masked?: Set<string>) => loadCiYaml(text, { inputs, variables, masked });
const valueOf = (text: string, inputs?: Record<string, unknown>, variables?: Record<string, string>) => {
  const loaded = load(text, inputs, variables);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
};
const errorOf = (text: string, inputs?: Record<string, unknown>, variables?: Record<string, string>, masked?: Set<string>) => {
  const loaded = load(text, inputs, variables, masked);
  return loaded.ok ? undefined : loaded.error;
};

const TYPED = `
spec:
  inputs:
    stage:
      default: test
    count:
      type: number
      default: 2
    verbose:
      type: boolean
      default: false
    targets:
      type: array
      default: [linux]
    env:
      options: [dev, prod]
      default: dev
    version:
      regex: ^v\\d+$
      default: v1
      description: The release
---
job-$[[ inputs.stage ]]:
  stage: $[[ inputs.stage ]]
  parallel: $[[ inputs.count ]]
  interruptible: $[[ inputs.verbose ]]
  tags: $[[ inputs.targets ]]
  script: echo $[[ inputs.env ]] $[[ inputs.version ]] $[[ inputs.count ]] $[[ inputs.targets ]]
`;

describe('spec:inputs', () => {
  it('fills in defaults, keeping a whole value\'s type and writing a value inside a string as text', () => {
    expect(valueOf(TYPED)).toEqual({
      'job-test': { stage: 'test', parallel: 2, interruptible: false, tags: ['linux'], script: 'echo dev v1 2 ["linux"]' },
    });
  });

  it('takes given values, reading text as JSON for number, boolean and array inputs', () => {
    expect(valueOf(TYPED, { stage: 'deploy', count: '3', verbose: 'true', targets: ['a', 'b'], env: 'prod', version: 'v22' })).toEqual({
      'job-deploy': { stage: 'deploy', parallel: 3, interruptible: true, tags: ['a', 'b'], script: 'echo prod v22 3 ["a", "b"]' },
    });
  });

  it.each([
    ['a required input missing', 'spec:\n  inputs:\n    website:\n---\njob:\n  script: echo $[[ inputs.website ]]', undefined, '`website` input: required value has not been provided'],
    ['an unknown input', 'spec:\n  inputs:\n    a: { default: x }\n---\njob: { script: echo }', { b: 1, c: 2 }, 'unknown input arguments: b, c'],
    ['a number that is not one', TYPED, { count: 'many' }, '`count` input: provided value is not a number'],
    ['a boolean that is not one', TYPED, { verbose: 'yes' }, '`verbose` input: provided value is not a boolean'],
    ['an array that is not one', TYPED, { targets: 'x' }, '`targets` input: provided value is not an array'],
    ['a value not in options', TYPED, { env: 'staging' }, '`env` input: `staging` cannot be used because it is not in the list of allowed options'],
    ['a regex mismatch', TYPED, { version: '1.0' }, '`version` input: provided value does not match required RegEx pattern'],
    ['a default of the wrong type', 'spec:\n  inputs:\n    n: { type: number, default: x }\n---\njob: { script: echo }', undefined, '`n` input: default value is not a number'],
    ['an unknown type', 'spec:\n  inputs:\n    n: { type: date }\n---\njob: { script: echo }', { n: 1 }, 'unknown input specification for `n` (valid types: array, boolean, number, string)'],
    ['an unknown interpolation key', 'spec:\n  inputs:\n    a: { default: x }\n---\njob:\n  script: echo $[[ inputs.b ]]', undefined, 'unknown interpolation key: `b`'],
    ['an access without a dot', 'spec:\n  inputs:\n    a: { default: x }\n---\njob:\n  script: echo $[[ a ]]', undefined, 'invalid interpolation access pattern'],
    ['an unknown function', 'spec:\n  inputs:\n    a: { default: x }\n---\njob:\n  script: echo $[[ inputs.a | upcase ]]', undefined, 'no function matching `upcase`: check that the function name, arguments, and types are correct'],
    ['inputs given to a file without a header', 'job: { script: echo }', { a: 1 }, 'unknown input arguments'],
    ['an unknown key in an input', 'spec:\n  inputs:\n    a: { default: x, secret: true }\n---\njob: { script: echo }', undefined, 'header:spec:inputs:a config contains unknown keys: secret'],
  ])('refuses %s with GitLab\'s error', (_case, text, inputs, error) => {
    expect(errorOf(text, inputs)).toBe(error);
  });

  it('joins up to three errors as GitLab does', () => {
    expect(errorOf('spec:\n  inputs:\n    a:\n    b:\n    c:\n    d:\n---\njob: { script: echo }')).toBe(
      '`a` input: required value has not been provided, `b` input: required value has not been provided, `c` input: required value has not been provided',
    );
  });

  it('applies truncate and expand_vars (only the variables the pipeline has)', () => {
    const text = 'spec:\n  inputs:\n    name: { default: abcdefgh }\n    path: { default: "$HOME/${PROJECT}/$MISSING" }\n---\njob:\n  script:\n    - echo $[[ inputs.name | truncate(2,3) ]]\n    - echo $[[ inputs.path | expand_vars ]]';
    expect(valueOf(text, undefined, { HOME: '/root', PROJECT: 'p' })).toEqual({ job: { script: ['echo cde', 'echo /root/p/$MISSING'] } });
  });

  it('applies posix_escape and split, expands %VAR% and leaves matrix blocks for parallel:matrix', () => {
    const text = [
      'spec:',
      '  inputs:',
      '    file: { default: "a b;$(rm -rf /)\'\\n*" }',
      '    list: { default: " x, y ,,z " }',
      '    words: { default: "one  two\\tthree" }',
      '    path: { default: "%HOME%/$NONE" }',
      '---',
      'job:',
      '  script:',
      '    - cat $[[ inputs.file | posix_escape ]]',
      '    - echo $[[ inputs.path | expand_vars ]]',
      '  tags: $[[ inputs.list | split(\',\') ]]',
      '  variables:',
      '    W: "w $[[ inputs.words | split(\' \') ]]"',
      '    M: $[[ matrix.OS ]]',
    ].join('\n');
    expect(valueOf(text, undefined, { HOME: '/root' })).toEqual({
      job: {
        script: ["cat a\\ b\\;\\$\\(rm\\ -rf\\ /\\)\\''\n'\\*", 'echo /root/$NONE'],
        tags: ['x', 'y', 'z'],
        variables: { W: 'w ["one", "two", "three"]', M: '$[[ matrix.OS ]]' },
      },
    });
  });

  it.each([
    ['truncate of a number', 'n: { type: number, default: 1 }', 'n | truncate(0,1)', undefined, 'error in `truncate` function: invalid input type: truncate can only be used with string inputs'],
    ['posix_escape of an array', 'n: { type: array, default: [] }', 'n | posix_escape', undefined, 'error in `posix_escape` function: invalid input type: posix_escape can only be used with string inputs'],
    ['split with no separator', 'n: { default: x }', "n | split('')", undefined, 'error in `split` function: invalid argument: separator cannot be empty'],
    ['expand_vars of a masked variable', 'n: { default: "${TOKEN}" }', 'n | expand_vars', new Set(['TOKEN']), 'error in `expand_vars` function: variable expansion error: masked variables cannot be expanded'],
    ['a function with arguments it does not take', 'n: { default: x }', 'n | posix_escape()', undefined, 'no function matching `posix_escape()`: check that the function name, arguments, and types are correct'],
  ])('refuses %s with GitLab\'s function error', (_case, input, block, masked, error) => {
    expect(errorOf(`spec:\n  inputs:\n    ${input}\n---\njob:\n  script: echo $[[ inputs.${block} ]]`, undefined, { TOKEN: 't' }, masked)).toBe(error);
  });

  it('matches regex: as an RE2 pattern found anywhere (inline flags, no /pattern/ form), refusing an invalid one', () => {
    const spec = (regex: string) => `spec:\n  inputs:\n    v: { regex: '${regex}' }\n---\njob:\n  script: echo $[[ inputs.v ]]`;
    expect(valueOf(spec('(?i)^v\\d+$'), { v: 'V12' })).toEqual({ job: { script: 'echo V12' } });
    expect(valueOf(spec('\\d'), { v: 'release-2' })).toEqual({ job: { script: 'echo release-2' } });
    expect(errorOf(spec('/^v1$/'), { v: 'v1' })).toBe('`v` input: provided value does not match required RegEx pattern');
    expect(errorOf(spec('^(v'), { v: 'v1' })).toBe('`v` input: invalid regular expression');
  });

  it('leaves a file without a header as written', () => {
    expect(valueOf('job:\n  script: echo $[[ inputs.a ]]')).toEqual({ job: { script: 'echo $[[ inputs.a ]]' } });
  });
});

describe('spec:inputs:rules', () => {
  const TEXT = `
spec:
  inputs:
    cloud:
      options: [aws, gcp]
      default: aws
    env:
      default: dev
    size:
      rules:
        - if: $[[ inputs.cloud ]] == 'aws' && $[[ inputs.env ]] == 'prod'
          options: [t3.xlarge, m5.xlarge]
          default: t3.xlarge
        - if: $[[ inputs.cloud ]] == 'gcp'
          options: [e2-micro, e2-small]
          default: e2-micro
        - options: [small, large]
          default: small
    custom:
      rules:
        - if: $[[ inputs.env ]] == 'custom'
          default: null
---
job:
  script: echo $[[ inputs.size ]]
`;

  it('takes the options and default of the first rule whose if holds, else the fallback', () => {
    expect(valueOf(TEXT)).toEqual({ job: { script: 'echo small' } });
    expect(valueOf(TEXT, { env: 'prod' })).toEqual({ job: { script: 'echo t3.xlarge' } });
    expect(valueOf(TEXT, { cloud: 'gcp', size: 'e2-small' })).toEqual({ job: { script: 'echo e2-small' } });
    expect(errorOf(TEXT, { cloud: 'gcp', size: 'small' })).toBe('`size` input: `small` cannot be used because it is not in the list of allowed options');
  });

  it('makes an input whose rules give no default required, and checks the rules as GitLab\'s header does', () => {
    const only = (rules: string, extra = '') => errorOf(`spec:\n  inputs:\n    a:\n${extra}      rules: ${rules}\n---\njob: { script: echo }`);
    expect(only("[{ if: '$[[ inputs.b ]] == \"x\"', options: [x] }]")).toBe('`a` input: required value has not been provided');
    expect(only('[{ options: [x] }]', '      options: [y]\n')).toBe('header:spec:inputs:a config these keys cannot be used together: options, rules');
    expect(only("[{ if: '$[[ inputs.b ]]' }]")).toBe("header:spec:inputs:a:rules:rule config rule with 'if' must define 'options' or 'default'");
    expect(only('[{ default: x }]')).toBe("header:spec:inputs:a:rules:rule config fallback rule must define 'options'");
    expect(only('[{ options: [x], when: always }]')).toBe('header:spec:inputs:a:rules:rule config contains unknown keys: when');
    expect(only('always')).toBe('header:spec:inputs:a:rules config should be a array');
  });
});

describe('include: with inputs:', () => {
  const HOME: IncludeSource = { projectId: 1, sha: 'a'.repeat(40) };
  const files: Record<string, string> = {
    'templates/build.yml': 'spec:\n  inputs:\n    job:\n    stage: { default: build }\n---\n$[[ inputs.job ]]:\n  stage: $[[ inputs.stage ]]\n  script: make',
  };
  const reader: IncludeReader = {
    serverFqdn: 'localhost',
    readFile: async (_source, path) => files[path],
    projectAt: async () => ({ result: 'project_not_found' }),
  };
  const expand = async (text: string) => {
    const loaded = loadCiYaml(text);
    if (!loaded.ok) throw new Error(loaded.error);
    return expandIncludes(loaded.value, HOME, reader);
  };

  it('gives each include\'s inputs to the file\'s header', async () => {
    const result = await expand('include:\n  - local: templates/build.yml\n    inputs: { job: one }\n  - local: templates/build.yml\n    inputs: { job: two, stage: test }');
    expect(result).toEqual({ ok: true, value: { one: { stage: 'build', script: 'make' }, two: { stage: 'test', script: 'make' } } });
  });

  it('names the file in an input error', async () => {
    expect(await expand('include:\n  - local: templates/build.yml')).toEqual({ ok: false, error: '`templates/build.yml`: `job` input: required value has not been provided' });
    expect(await expand('include:\n  - local: templates/build.yml\n    inputs: { job: x, other: 1 }')).toEqual({ ok: false, error: '`templates/build.yml`: unknown input arguments: other' });
  });
});

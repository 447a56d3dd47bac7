/**
 * CI/CD inputs: a file's `spec:inputs` header, the values checked against it (GitLab's messages),
 * `$[[ ]]` interpolation with its functions, and `include:` passing `inputs:` to a file's header.
 */
import { describe, expect, it } from 'vitest';
import { expandIncludes, type IncludeReader, type IncludeSource } from '../../shared/ci/config/includes';
import { loadCiYaml } from '../../shared/ci/config/parse';

const load = (text: string, inputs?: Record<string, unknown>, variables: Record<string, string> = {}) => loadCiYaml(text, { inputs, variables });
const valueOf = (text: string, inputs?: Record<string, unknown>, variables?: Record<string, string>) => {
  const loaded = load(text, inputs, variables);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
};
const errorOf = (text: string, inputs?: Record<string, unknown>) => {
  const loaded = load(text, inputs);
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

  it('leaves a file without a header as written', () => {
    expect(valueOf('job:\n  script: echo $[[ inputs.a ]]')).toEqual({ job: { script: 'echo $[[ inputs.a ]]' } });
  });
});

describe('include: with inputs:', () => {
  const HOME: IncludeSource = { projectId: 1, sha: 'a'.repeat(40) };
  const files: Record<string, string> = {
    'templates/build.yml': 'spec:\n  inputs:\n    job:\n    stage: { default: build }\n---\n$[[ inputs.job ]]:\n  stage: $[[ inputs.stage ]]\n  script: make',
  };
  const reader: IncludeReader = {
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

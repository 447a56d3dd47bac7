import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../shared/ci/config/durations';
import { evaluateExpression } from '../../shared/ci/config/expressions';
import { missingNeedsError, parseCiConfig, selectJobs, workflowAllows, workflowAutoCancel, workflowRuleVariables, type CiConfig, type PipelineContext } from '../../shared/ci/config/parse';
import { releaseCommand } from '../../shared/ci/presenters/runner-job';
import { compositeStatus, nextStatuses, type ProcessableJob } from '../../shared/ci/status';

const parsed = (text: string): CiConfig => {
  const result = parseCiConfig(text);
  if (!result.ok) throw new Error(result.error);
  return result.config;
};
const errorOf = (text: string) => {
  const result = parseCiConfig(text);
  return result.ok ? undefined : result.error;
};
const push = (ref = 'main', variables: Record<string, string> = {}): PipelineContext => ({
  ref,
  tag: false,
  source: 'push',
  variables: { CI_COMMIT_BRANCH: ref, CI_COMMIT_REF_NAME: ref, CI_PIPELINE_SOURCE: 'push', ...variables },
});
const tagPush = (ref: string): PipelineContext => ({ ref, tag: true, source: 'push', variables: { CI_COMMIT_TAG: ref, CI_COMMIT_REF_NAME: ref, CI_PIPELINE_SOURCE: 'push' } });

describe('.gitlab-ci.yml', () => {
  it('reads stages, jobs, scripts, defaults, image, services, variables', () => {
    const config = parsed(`
stages: [build, test]
variables: { GLOBAL: one, NUM: 3 }
default:
  image: node:22
  before_script: [echo before]
after_script:
  - echo after
build:
  stage: build
  script: echo build
  services: [postgres:16, { name: redis, alias: cache }]
  variables: { LOCAL: two }
  tags: [linux]
  artifacts: { paths: [out/], name: bin, expire_in: 1 week }
  cache: { key: deps, paths: [node_modules/] }
  retry: 2
  timeout: 1h 30m
test:
  script: [npm test, [echo nested]]
  image: { name: alpine, entrypoint: [""] }
  dependencies: [build]
`);
    expect(config.stages).toEqual(['.pre', 'build', 'test', '.post']);
    const [build, test] = config.jobs;
    expect(build).toMatchObject({
      name: 'build',
      stage: 'build',
      stageIdx: 1,
      script: ['echo build'],
      beforeScript: ['echo before'],
      afterScript: ['echo after'],
      image: { name: 'node:22' },
      services: [{ name: 'postgres:16' }, { name: 'redis', alias: 'cache' }],
      variables: { GLOBAL: 'one', NUM: '3', LOCAL: 'two' },
      tags: ['linux'],
      artifacts: { paths: ['out/'], name: 'bin', expireIn: '1 week', when: 'on_success' },
      cache: [{ key: 'deps', paths: ['node_modules/'], policy: 'pull-push' }],
      retry: { max: 2 },
      timeout: 5400,
      when: 'on_success',
      allowFailure: false,
    });
    expect(test).toMatchObject({ stage: 'test', script: ['npm test', 'echo nested'], image: { name: 'alpine', entrypoint: [''] }, dependencies: ['build'] });
  });

  it('resolves anchors, merge keys, hidden jobs and extends', () => {
    const config = parsed(`
.base: &base
  image: ruby
  variables: { A: "1", B: "1" }
  tags: [docker]
.more:
  extends: .base
  variables: { B: "2" }
job1:
  <<: *base
  script: one
job2:
  extends: .more
  script: two
  tags: [shell]
`);
    expect(config.jobs.map((j) => j.name)).toEqual(['job1', 'job2']);
    expect(config.jobs[0]).toMatchObject({ image: { name: 'ruby' }, tags: ['docker'] });
    expect(config.jobs[1]).toMatchObject({ image: { name: 'ruby' }, variables: { A: '1', B: '2' }, tags: ['shell'] });
  });

  it('gives GitLab errors for invalid files', () => {
    expect(errorOf('build:\n  script: [a\n')).toMatch(/^\(<unknown>\): .* at line \d+ column \d+$/);
    expect(errorOf('just a string')).toBe('Invalid configuration format');
    expect(errorOf('.hidden:\n  script: x\n')).toBe('jobs config should contain at least one visible job');
    expect(errorOf('build:\n  stage: nope\n  script: x\n')).toBe('build job: chosen stage nope does not exist; available stages are .pre, build, test, deploy, .post');
    expect(errorOf('build:\n  image: x\n')).toBe('jobs:build config should implement the script:, run:, or trigger: keyword');
    expect(errorOf('a:\n  extends: b\n  script: x\nb:\n  extends: a\n  script: y\n')).toMatch(/circular dependency detected in `extends`/);
    expect(errorOf('a:\n  extends: .nope\n  script: x\n')).toBe('a: unknown keys in `extends` (.nope)');
    expect(errorOf('a:\n  script: x\n  needs: [zz]\n')).toBe('a job: undefined need: zz');
    expect(errorOf('a:\n  script: x\n  dependencies: [zz]\n')).toBe('a job: undefined dependency: zz');
    expect(errorOf('a:\n  script: x\n  when: sometimes\n')).toMatch(/jobs:a:when config should be one of/);
    expect(errorOf('a:\n  script: x\n  bogus: 1\n')).toBe('jobs:a config contains unknown keys: bogus');
    expect(errorOf('a:\n  script: x\n  only: [main]\n  rules: [{ when: always }]\n')).toMatch(/may not be used with `rules`/);
  });

  it('selects jobs by only/except and rules', () => {
    const config = parsed(`
always: { script: x }
main_only: { script: x, only: [main] }
not_main: { script: x, except: [main] }
tags_only: { script: x, only: [tags] }
regex: { script: x, only: ['/^release-.*$/'] }
api_only: { script: x, only: [api] }
ruled:
  script: x
  rules:
    - if: '$CI_COMMIT_TAG'
      when: never
    - if: '$CI_COMMIT_BRANCH == "main" && $CI_PIPELINE_SOURCE != "api"'
      when: manual
    - if: '$CI_COMMIT_BRANCH =~ /^feat/'
no_match:
  script: x
  rules:
    - if: '$NOPE == "1"'
`);
    const names = (context: PipelineContext) => selectJobs(config, context).map((j) => j.name);
    expect(names(push('main'))).toEqual(['always', 'main_only', 'ruled']);
    expect(selectJobs(config, push('main')).find((j) => j.name === 'ruled')).toMatchObject({ when: 'manual', allowFailure: true });
    expect(names(push('feature'))).toEqual(['always', 'not_main', 'ruled']);
    expect(selectJobs(config, push('feature')).find((j) => j.name === 'ruled')).toMatchObject({ when: 'on_success' });
    expect(names(push('release-1'))).toEqual(['always', 'not_main', 'regex']);
    expect(names(tagPush('v1'))).toEqual(['always', 'not_main', 'tags_only']);
    expect(names({ ...push('other'), source: 'api' })).toEqual(['always', 'not_main', 'api_only']);
  });

  it('applies workflow rules and reports needs of jobs left out', () => {
    const config = parsed(`
workflow:
  rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }]
build: { script: x, only: [main] }
test: { script: x, needs: [build] }
`);
    expect(workflowAllows(config, push('main'))).toBe(true);
    expect(workflowAllows(config, push('dev'))).toBe(false);
    expect(missingNeedsError(selectJobs(config, push('dev')))).toMatch(/'test' job needs 'build' job/);
  });

  it('reads workflow:auto_cancel, a matching workflow rule overriding it key by key, with GitLab\'s errors', () => {
    const config = parsed(`
workflow:
  auto_cancel: { on_new_commit: interruptible, on_job_failure: all }
  rules:
    - if: '$CI_COMMIT_BRANCH == "main"'
      auto_cancel: { on_new_commit: none }
    - when: always
build: { script: x, interruptible: true }
test: { script: x }
`);
    expect(workflowAutoCancel(config, push('main'))).toEqual({ onNewCommit: 'none', onJobFailure: 'all' });
    expect(workflowAutoCancel(config, push('dev'))).toEqual({ onNewCommit: 'interruptible', onJobFailure: 'all' });
    expect(workflowAutoCancel(parsed('build: { script: x }'), push('dev'))).toEqual({ onNewCommit: 'conservative', onJobFailure: 'none' });
    expect(config.jobs.map((job) => job.interruptible)).toEqual([true, false]);
    expect(errorOf('workflow: { auto_cancel: { on_new_commit: sometimes } }\nbuild: { script: x }')).toBe('workflow:auto_cancel on new commit must be one of: conservative, interruptible, none');
    expect(errorOf('workflow: { auto_cancel: { on_job_failure: any } }\nbuild: { script: x }')).toBe('workflow:auto_cancel on job failure must be one of: none, all');
    expect(errorOf('workflow: { auto_cancel: { later: x } }\nbuild: { script: x }')).toBe('workflow:auto_cancel config contains unknown keys: later');
    expect(errorOf('workflow: { rules: [{ auto_cancel: { on_new_commit: x } }] }\nbuild: { script: x }')).toBe('workflow:rules:rule:auto_cancel on new commit must be one of: conservative, interruptible, none');
  });
});

describe('release:', () => {
  it('becomes the job’s release step, a release-cli command as GitLab’s Releaser writes it', () => {
    // Arrange
    const [job] = parsed(`
release_job:
  script: [echo releasing]
  release:
    tag_name: $CI_COMMIT_TAG
    name: Release $CI_COMMIT_TAG
    description: ./CHANGELOG.md
    milestones: [m1, m2]
    assets:
      links:
        - { name: bin, url: 'https://example.com/bin', link_type: package, ignored: x }
`).jobs;

    // Act
    const command = releaseCommand(job.release!);

    // Assess
    expect(job.release).toEqual({
      tagName: '$CI_COMMIT_TAG',
      description: './CHANGELOG.md',
      name: 'Release $CI_COMMIT_TAG',
      milestones: ['m1', 'm2'],
      links: [{ name: 'bin', url: 'https://example.com/bin', link_type: 'package' }],
    });
    expect(command).toBe(
      'release-cli create --name "Release $CI_COMMIT_TAG" --description "./CHANGELOG.md" --tag-name "$CI_COMMIT_TAG" --milestone "m1" --milestone "m2" ' +
        `--assets-link "{\\"name\\":\\"bin\\",\\"url\\":\\"https://example.com/bin\\",\\"link_type\\":\\"package\\"}"`,
    );
  });

  it.each([
    ['no tag_name', 'release: { description: d }', "jobs:job:release tag name can't be blank"],
    ['no description', 'release: { tag_name: v1 }', "jobs:job:release description can't be blank"],
    ['an unknown key', 'release: { tag_name: v1, description: d, color: red }', 'jobs:job:release config contains unknown keys: color'],
    ['a link without url', 'release: { tag_name: v1, description: d, assets: { links: [{ name: a }] } }', 'jobs:job:release:assets:links:0 config should have a name and a url'],
  ])('refuses a release with %s', (_case, release, error) => {
    expect(errorOf(`job:\n  script: [echo]\n  ${release}\n`)).toBe(error);
  });
});

describe('parallel:', () => {
  const names = (config: CiConfig) => config.jobs.map((job) => job.name);

  it('expands a number into N jobs named <name> i/N with CI_NODE_INDEX and CI_NODE_TOTAL', () => {
    const config = parsed('rspec:\n  parallel: 3\n  variables: { OWN: x }\n  script: rspec\n');
    expect(names(config)).toEqual(['rspec 1/3', 'rspec 2/3', 'rspec 3/3']);
    expect(config.jobs[1]).toMatchObject({ stage: 'test', script: ['rspec'], variables: { OWN: 'x', CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' } });
  });

  it('expands a matrix into one job per combination, named by its values, with those variables', () => {
    const config = parsed(`
deploy:
  script: deploy
  parallel:
    matrix:
      - PROVIDER: aws
        STACK: [monitoring, app1]
      - PROVIDER: [gcp, vultr]
        STACK: data
        VERSION: 2
`);
    expect(names(config)).toEqual([
      'deploy: [aws, monitoring]',
      'deploy: [aws, app1]',
      'deploy: [gcp, data, 2]',
      'deploy: [vultr, data, 2]',
    ]);
    expect(config.jobs[2].variables).toEqual({ PROVIDER: 'gcp', STACK: 'data', VERSION: '2', CI_NODE_INDEX: '3', CI_NODE_TOTAL: '4' });
    // A one-variable matrix with a scalar value is one job.
    expect(names(parsed('lint:\n  script: lint\n  parallel:\n    matrix:\n      - NODE: 22\n'))).toEqual(['lint: [22]']);
  });

  it('makes needs and dependencies on the base name refer to every expanded job', () => {
    const config = parsed(`
stages: [build, test]
build:
  stage: build
  parallel: 2
  script: make
test:
  needs: [{ job: build, artifacts: false }]
  script: test
report:
  dependencies: [build]
  script: report
matrix:
  stage: build
  parallel: { matrix: [{ OS: [linux, mac] }] }
  script: make
after:
  needs: [matrix]
  script: after
`);
    const job = (name: string) => config.jobs.find((j) => j.name === name)!;
    expect(job('test').needs).toEqual([
      { name: 'build 1/2', artifacts: false, optional: false },
      { name: 'build 2/2', artifacts: false, optional: false },
    ]);
    expect(job('report').dependencies).toEqual(['build 1/2', 'build 2/2']);
    expect(job('after').needs!.map((need) => need.name)).toEqual(['matrix: [linux]', 'matrix: [mac]']);
    // The expanded needs stand in a pipeline: none is missing.
    expect(missingNeedsError(selectJobs(config, push()))).toBeUndefined();
  });

  it.each([
    ['parallel: 0', 'jobs:rspec:parallel config must be greater than or equal to 1'],
    ['parallel: 201', 'jobs:rspec:parallel config must be less than or equal to 200'],
    ['parallel: 1.5', 'jobs:rspec:parallel config must be an integer'],
    ['parallel: two', 'jobs:rspec:parallel should be an integer or a hash'],
    ['parallel: { number: 2 }', 'jobs:rspec:parallel config contains unknown keys: number'],
    ['parallel: {}', 'jobs:rspec:parallel config missing required keys: matrix'],
    ['parallel: { matrix: [A, B] }', 'jobs:rspec:parallel:matrix config should be an array of hashes'],
    ['parallel: { matrix: [{ A: { b: c } }] }', 'jobs:rspec:parallel:matrix:variables config should be a hash of key value pairs, value can be an array'],
    [`parallel: { matrix: [{ A: [${Array.from({ length: 15 }, (_, i) => i).join(', ')}], B: [${Array.from({ length: 14 }, (_, i) => i).join(', ')}] }] }`, 'jobs:rspec:parallel:matrix config generates too many jobs (maximum is 200)'],
  ])('refuses %s as GitLab does', (parallel, error) => {
    expect(errorOf(`rspec:\n  script: rspec\n  ${parallel}\n`)).toBe(error);
  });

  it('accepts the limits, 1 and 200', () => {
    expect(names(parsed('rspec:\n  script: rspec\n  parallel: 1\n'))).toEqual(['rspec 1/1']);
    expect(parsed('rspec:\n  script: rspec\n  parallel: 200\n').jobs).toHaveLength(200);
  });
});

describe('expressions and durations', () => {
  it('evaluates', () => {
    const vars = { A: 'x', B: '' };
    expect(evaluateExpression('$A', vars)).toBe(true);
    expect(evaluateExpression('$B', vars)).toBe(false);
    expect(evaluateExpression('$C == null', vars)).toBe(true);
    expect(evaluateExpression('$A == "x" || ($C && $A)', vars)).toBe(true);
    expect(evaluateExpression('$A !~ /X/i', vars)).toBe(false);
    // GitLab's RE2 flags (`ismU`), written after the pattern or inline; any other flag does not parse.
    expect(evaluateExpression('$A =~ /^X$/iU && "a\nb" =~ /a.b/s', vars)).toBe(true);
    expect(evaluateExpression('$A =~ /(?i)^X$/', vars)).toBe(true);
    expect(() => evaluateExpression('$A =~ /x/g', vars)).toThrow('invalid expression syntax');
    expect(() => evaluateExpression('$A =~ /(x/', vars)).toThrow('invalid expression syntax');
    // RE2's syntax and engine: no lookaround (refused as GitLab refuses it), and a pattern that
    // backtracks exponentially in JavaScript's engine answers at once.
    expect(() => evaluateExpression('$A =~ /(?=x)/', vars)).toThrow('invalid expression syntax');
    expect(evaluateExpression(`"${'a'.repeat(5_000)}b" =~ /^(a+)+$/`, vars)).toBe(false);
    // An input's rules read `$[[ inputs.name ]]` (any type) and the `true`/`false` literals.
    const inputs = { cloud: 'aws', publish: false, count: 2 };
    expect(evaluateExpression("$[[ inputs.cloud ]] == 'aws' && $[[ inputs.publish ]] == false", {}, inputs)).toBe(true);
    expect(evaluateExpression('$[[ inputs.publish ]] || $[[ inputs.missing ]]', {}, inputs)).toBe(false);
    expect(evaluateExpression("$[[ inputs.count ]] == '2'", {}, inputs)).toBe(false);
    expect(parseDuration('2 weeks')).toBe(1_209_600);
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('soon')).toBeUndefined();
  });
});

describe('status composition', () => {
  const job = (id: number, stageIdx: number, status: ProcessableJob['status'], extra: Partial<ProcessableJob> = {}): ProcessableJob => ({
    id,
    name: `j${id}`,
    stageIdx,
    status,
    when: 'on_success',
    allowFailure: false,
    ...extra,
  });
  it('composes as GitLab', () => {
    expect(compositeStatus([{ status: 'success', allowFailure: false }, { status: 'failed', allowFailure: true }])).toBe('success');
    expect(compositeStatus([{ status: 'success', allowFailure: false }, { status: 'manual', allowFailure: true }])).toBe('success');
    expect(compositeStatus([{ status: 'success', allowFailure: false }, { status: 'manual', allowFailure: false }])).toBe('manual');
    expect(compositeStatus([{ status: 'running', allowFailure: false }, { status: 'failed', allowFailure: false }])).toBe('running');
    expect(compositeStatus([{ status: 'failed', allowFailure: false }, { status: 'skipped', allowFailure: false }])).toBe('failed');
    expect(compositeStatus([{ status: 'pending', allowFailure: false }, { status: 'created', allowFailure: false }])).toBe('pending');
    expect(compositeStatus([{ status: 'success', allowFailure: false }, { status: 'created', allowFailure: false }])).toBe('running');
    expect(compositeStatus([{ status: 'canceled', allowFailure: false }, { status: 'success', allowFailure: false }])).toBe('canceled');
  });
  it('starts stages in order, skips after failure, runs on_failure and manual jobs', () => {
    const jobs = [job(1, 0, 'created'), job(2, 1, 'created'), job(3, 1, 'created', { when: 'manual', allowFailure: true })];
    expect([...nextStatuses(jobs)]).toEqual([[1, 'pending']]);
    const after = [job(1, 0, 'success'), job(2, 1, 'created'), job(3, 1, 'created', { when: 'manual', allowFailure: true }), job(4, 2, 'created')];
    expect(Object.fromEntries(nextStatuses(after))).toEqual({ 2: 'pending', 3: 'manual' });
    const failed = [job(1, 0, 'failed'), job(2, 1, 'created'), job(3, 1, 'created', { when: 'on_failure' }), job(4, 1, 'created', { when: 'always' })];
    expect(Object.fromEntries(nextStatuses(failed))).toEqual({ 2: 'skipped', 3: 'pending', 4: 'pending' });
    const needs = [job(1, 0, 'running'), job(2, 0, 'success'), job(3, 1, 'created', { needs: ['j2'] })];
    expect(Object.fromEntries(nextStatuses(needs))).toEqual({ 3: 'pending' });
  });

  it('reads workflow:name as written, 255 characters at most, and the matching workflow rule variables', () => {
    const config = parsed(`
workflow:
  name: 'Pipeline for $NAME_PART'
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
      variables: { NAME_PART: main branch }
    - when: always
job: { script: echo }
`);
    expect(config.workflowName).toBe('Pipeline for $NAME_PART');
    expect(workflowRuleVariables(config, push('main'))).toEqual({ NAME_PART: 'main branch' });
    expect(workflowRuleVariables(config, push('other'))).toEqual({});
    expect(parsed('workflow: { name: 42 }\njob: { script: echo }').workflowName).toBe('42');
    expect(errorOf(`workflow: { name: '${'x'.repeat(256)}' }\njob: { script: echo }`)).toBe('workflow name is too long (maximum is 255 characters)');
    expect(errorOf('workflow: { name: [a] }\njob: { script: echo }')).toBe('workflow name should be a string');
  });

  it('reads trigger jobs (trigger:include, strategy, forward) with GitLab’s errors', () => {
    const config = parsed(`
child:
  trigger:
    include: [a.yml, { local: b.yml }, { project: g/p, file: c.yml }]
    strategy: depend
    forward: { pipeline_variables: true }
short: { trigger: { include: a.yml } }
other: { trigger: group/project }
`);
    const byName = Object.fromEntries(config.jobs.map((job) => [job.name, job.trigger]));
    expect(byName.child).toEqual({ include: [{ local: 'a.yml' }, { local: 'b.yml' }, { project: 'g/p', file: 'c.yml' }], strategy: 'depend', forward: { yamlVariables: true, pipelineVariables: true } });
    expect(byName.short).toEqual({ include: [{ local: 'a.yml' }], forward: { yamlVariables: true, pipelineVariables: false } });
    expect(byName.other).toEqual({ project: 'group/project', forward: { yamlVariables: true, pipelineVariables: false } });
    expect(errorOf('a: { trigger: { include: a.yml }, script: echo }')).toBe('jobs:a config contains unknown keys: script');
    expect(errorOf('a: { trigger: { include: a.yml, strategy: wait } }')).toBe('jobs:a:trigger strategy should be depend');
    expect(errorOf('a: { trigger: { include: a.yml, branch: x } }')).toBe('jobs:a:trigger config contains unknown keys: branch');
    expect(errorOf('a: { trigger: { include: a.yml, forward: { yaml_variables: 1 } } }')).toBe('jobs:a:trigger:forward yaml variables should be a boolean value');
    expect(errorOf('a: { trigger: [x] }')).toBe('jobs:a:trigger has to be either a string or a hash');
  });
});

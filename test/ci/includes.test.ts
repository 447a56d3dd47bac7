/**
 * `include:` resolved as GitLab's `Config::External` does, with an in-memory reader standing in
 * for the repositories: local and project files, nesting, the merge order (included files first,
 * the including file's keys over them), `extends` across files, `rules:` on includes, the limits,
 * and GitLab's yaml errors.
 */
import { describe, expect, it } from 'vitest';
import { expandIncludes, MAX_INCLUDES, type IncludeReader, type IncludeSource } from '../../shared/ci/config/includes';
import { buildCiConfig, loadCiYaml } from '../../shared/ci/config/parse';

const HOME: IncludeSource = { projectId: 1, sha: 'a'.repeat(40) };
const SHARED: IncludeSource = { projectId: 2, sha: 'b'.repeat(40) };

/** Files by project id and path; project 2 is `group/shared` (its default branch at SHARED, `v1` too), on server `ci.example.com:8443`. */
function memoryReader(files: Record<number, Record<string, string>>): IncludeReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    serverFqdn: 'ci.example.com:8443',
    async readFile(source, path) {
      reads.push(`${source.projectId}:${path}`);
      return files[source.projectId]?.[path];
    },
    async projectAt(fullPath, ref) {
      if (fullPath !== 'group/shared') return { result: 'project_not_found' };
      if (ref !== undefined && ref !== 'v1') return { result: 'ref_not_found' };
      return { result: 'found', source: SHARED };
    },
  };
}

async function resolve(text: string, files: Record<number, Record<string, string>>, variables: Record<string, string> = {}, masked: ReadonlySet<string> = new Set()) {
  const loaded = loadCiYaml(text);
  if (!loaded.ok) throw new Error(loaded.error);
  return expandIncludes(loaded.value, HOME, memoryReader(files), variables, masked);
}

async function jobsOf(text: string, files: Record<number, Record<string, string>>, variables: Record<string, string> = {}) {
  const expanded = await resolve(text, files, variables);
  if (!expanded.ok) throw new Error(expanded.error);
  const parsed = buildCiConfig(expanded.value);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

describe('include: local', () => {
  it.each([
    ['a string', 'include: ci/build.yml'],
    ['a list of strings', 'include: [ci/build.yml]'],
    ['a list of hashes', 'include:\n  - local: ci/build.yml'],
    ['a hash', 'include:\n  local: /ci/build.yml'],
  ])('takes the included jobs when include is %s', async (_, include) => {
    const config = await jobsOf(`${include}\ntest:\n  script: [make test]\n`, { 1: { 'ci/build.yml': 'build:\n  stage: build\n  script: [make]\n' } });
    expect(config.jobs.map((job) => [job.name, job.stage, job.script])).toEqual([
      ['build', 'build', ['make']],
      ['test', 'test', ['make test']],
    ]);
  });

  it('merges included files first and the including file deep over them; extends works across files', async () => {
    const config = await jobsOf(
      `include: [ci/a.yml, ci/b.yml]
variables: { LEVEL: root }
build:
  variables: { OWN: root }
test:
  extends: .template
  script: [make test]
`,
      {
        1: {
          'ci/a.yml': 'variables: { LEVEL: a, ONLY_A: a }\n.template:\n  tags: [docker]\n  variables: { FROM: template }\nbuild:\n  script: [a]\n  variables: { OWN: a, KEPT: a }\n',
          'ci/b.yml': 'build:\n  script: [b]\n',
        },
      },
    );
    const build = config.jobs.find((job) => job.name === 'build')!;
    expect(build.script).toEqual(['b']);
    expect(build.variables).toEqual({ LEVEL: 'root', ONLY_A: 'a', OWN: 'root', KEPT: 'a' });
    const test = config.jobs.find((job) => job.name === 'test')!;
    expect(test.tags).toEqual(['docker']);
    expect(test.variables).toMatchObject({ FROM: 'template' });
  });

  it('expands nested includes, a local include of a project file reading that project', async () => {
    const reader = memoryReader({
      1: { 'one.yml': 'include: two.yml\none:\n  script: [one]\n', 'two.yml': 'include:\n  project: group/shared\n  file: shared.yml\ntwo:\n  script: [two]\n' },
      2: { 'shared.yml': 'include: inner.yml\nshared:\n  script: [shared]\n', 'inner.yml': 'inner:\n  script: [inner]\n' },
    });
    const loaded = loadCiYaml('include: one.yml\nroot:\n  script: [root]\n');
    const expanded = await expandIncludes((loaded as { value: Record<string, unknown> }).value, HOME, reader);
    expect(expanded.ok && Object.keys(expanded.value).sort()).toEqual(['inner', 'one', 'root', 'shared', 'two']);
    expect(reader.reads).toEqual(['1:one.yml', '1:two.yml', '2:shared.yml', '2:inner.yml']);
  });

  it('includes only the files whose rules match', async () => {
    const text = `include:
  - local: ci/tags.yml
    rules:
      - if: $CI_COMMIT_TAG
  - local: ci/always.yml
`;
    const files = { 1: { 'ci/tags.yml': 'release:\n  script: [r]\n', 'ci/always.yml': 'build:\n  script: [b]\n' } };
    expect((await jobsOf(text, files, { CI_COMMIT_BRANCH: 'main' })).jobs.map((job) => job.name)).toEqual(['build']);
    expect((await jobsOf(text, files, { CI_COMMIT_TAG: 'v1' })).jobs.map((job) => job.name)).toEqual(['release', 'build']);
  });

  it('leaves a file without include as it is', async () => {
    const expanded = await resolve('build:\n  script: [make]\n', {});
    expect(expanded).toEqual({ ok: true, value: { build: { script: ['make'] } } });
  });
});

describe('include: project', () => {
  it('reads the file at the default branch, or at ref; file may be a list', async () => {
    const files = { 2: { 'a.yml': 'a:\n  script: [a]\n', 'b.yml': 'b:\n  script: [b]\n' } };
    const config = await jobsOf('include:\n  - project: Group/Shared\n    ref: v1\n    file: [a.yml, /b.yml]\n', files);
    expect(config.jobs.map((job) => job.name)).toEqual(['a', 'b']);
  });
});

describe('include: component', () => {
  const files = {
    2: {
      'templates/lint.yml': 'spec:\n  inputs:\n    stage:\n      default: test\n---\nlint:\n  stage: $[[ inputs.stage ]]\n  script: [lint]\n',
      'templates/deploy/template.yml': 'include: templates/deploy/steps.yml\ndeploy:\n  stage: deploy\n  extends: .steps\n',
      'templates/deploy/steps.yml': '.steps:\n  script: [deploy]\n',
    },
  };

  it('reads templates/<name>.yml or templates/<name>/template.yml of the project at the version, with its inputs and its own local includes', async () => {
    const config = await jobsOf(
      'stages: [build, test, deploy]\ninclude:\n  - component: $CI_SERVER_FQDN/group/shared/lint@v1\n    inputs:\n      stage: build\n  - component: ci.example.com:8443/Group/Shared/deploy@v1\n',
      files,
      { CI_SERVER_FQDN: 'ci.example.com:8443' },
    );
    expect(config.jobs.map((job) => [job.name, job.stage, job.script])).toEqual([
      ['lint', 'build', ['lint']],
      ['deploy', 'deploy', ['deploy']],
    ]);
  });

  it.each([
    ['without a version', 'ci.example.com:8443/group/shared/lint', 'the component path is not supported'],
    ['on another server', 'gitlab.com/group/shared/lint@v1', 'the component path is not supported'],
    ['at ~latest (no CI/CD Catalog here)', 'ci.example.com:8443/group/shared/lint@~latest', 'The ~latest version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.'],
    ['at a partial version', 'ci.example.com:8443/group/shared/lint@1.2', 'The partial semantic version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.'],
    ['of an unknown or unreadable project', 'ci.example.com:8443/other/secret/lint@v1', "project does not exist or you don't have sufficient permissions"],
    ['at an unknown version', 'ci.example.com:8443/group/shared/lint@v9', 'content not found'],
    ['that does not exist', 'ci.example.com:8443/group/shared/none@v1', 'content not found'],
  ])('a component %s is refused with GitLab’s error', async (_, address, reason) => {
    expect(await resolve(`include:\n  component: ${address}\n`, files)).toEqual({ ok: false, error: `Component '${address}' - ${reason}` });
  });
});

describe('include: artifact', () => {
  const parent = (files: Record<string, Record<string, string>>): IncludeReader['parentArtifact'] => async (job, path) => {
    if (!files[job]) return { result: 'no_job' };
    const text = files[job][path];
    return text === undefined ? { result: 'unreadable', message: `Path \`${path}\` does not exist inside the \`${job}\` artifacts archive!` } : { result: 'found', text };
  };
  const resolveChild = async (text: string, artifacts: Record<string, Record<string, string>>) => {
    const loaded = loadCiYaml(text);
    if (!loaded.ok) throw new Error(loaded.error);
    return expandIncludes(loaded.value, HOME, { ...memoryReader({ 1: { 'ci/common.yml': '.common:\n  stage: build\n' } }), parentArtifact: parent(artifacts) });
  };

  it('reads a file of a parent job’s artifacts in a child pipeline, its local includes from the commit', async () => {
    const expanded = await resolveChild('include: [{ artifact: gen.yml, job: generate }]\n', { generate: { 'gen.yml': 'include: ci/common.yml\ngen:\n  extends: .common\n  script: [x]\n' } });
    expect(expanded.ok && buildCiConfig(expanded.value)).toMatchObject({ ok: true, config: { jobs: [{ name: 'gen', stage: 'build' }] } });
  });

  it.each([
    ['outside a child pipeline', 'include: [{ artifact: gen.yml, job: generate }]\n', 'Including configs from artifacts is only allowed when triggering child pipelines', false],
    ['without a job', 'include: [{ artifact: gen.yml }]\n', 'Job must be provided when including configs from artifacts', true],
    ['of a job without artifacts', 'include: [{ artifact: gen.yml, job: other }]\n', 'Job `other` not found in parent pipeline or does not have artifacts!', true],
    ['of a file the archive lacks', 'include: [{ artifact: none.yml, job: generate }]\n', 'Path `none.yml` does not exist inside the `generate` artifacts archive!', true],
    ['of an empty file', 'include: [{ artifact: empty.yml, job: generate }]\n', 'File `empty.yml` is empty!', true],
  ])('refuses an artifact include %s with GitLab’s error', async (_, text, error, child) => {
    const artifacts = { generate: { 'gen.yml': 'a:\n  script: [a]\n', 'empty.yml': '' } };
    expect(await (child ? resolveChild(text, artifacts) : resolve(text, {}))).toEqual({ ok: false, error });
  });
});

describe('variables in include locations', () => {
  it('expands them after rules (an unknown one to nothing), showing a masked value as x in errors', async () => {
    const files = { 2: { 'ci/a.yml': 'a:\n  script: [a]\n' } };
    const config = await jobsOf('include:\n  - project: $GROUP/shared\n    ref: $REF\n    file: [ci/$NAME.yml]\n  - local: ci/$UNSET.yml\n    rules: [{ if: $UNSET }]\n', files, { GROUP: 'group', REF: 'v1', NAME: 'a' });
    expect(config.jobs.map((job) => job.name)).toEqual(['a']);
    expect(await resolve('include:\n  - local: ci/$SECRET.yml\n', files, { SECRET: 'hunter22' }, new Set(['SECRET']))).toEqual({ ok: false, error: 'Local file `ci/xxxxxxxx.yml` does not exist!' });
  });
});

describe('include errors (the pipeline’s yaml_errors)', () => {
  it.each([
    ['a missing local file', 'include: ci/none.yml', 'Local file `ci/none.yml` does not exist!'],
    ['an empty local file', 'include: ci/empty.yml', 'Local file `ci/empty.yml` is empty!'],
    ['a file that is not YAML', 'include: ci/bad.yml', 'Included file `ci/bad.yml` does not have valid YAML syntax!'],
    ['a path without a YAML extension', 'include: ci/build.txt', 'Included file `ci/build.txt` does not have YAML extension!'],
    ['an unknown or unreadable project', 'include:\n  project: other/secret\n  file: a.yml', 'Project `other/secret` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.'],
    ['an unknown ref', 'include:\n  project: group/shared\n  ref: nope\n  file: a.yml', 'Project `group/shared` reference `nope` does not exist!'],
    ['a missing project file', 'include:\n  project: group/shared\n  file: none.yml', 'Project `group/shared` file `none.yml` does not exist!'],
    ['a remote file', 'include: https://example.com/ci.yml', 'Remote file `https://example.com/ci.yml` could not be included: `include:remote` is not supported on this server!'],
    ['a template', 'include:\n  template: Auto-DevOps.gitlab-ci.yml', 'Template file `Auto-DevOps.gitlab-ci.yml` could not be included: `include:template` is not supported on this server!'],
    ['an include without a valid subkey', 'include:\n  - file: a.yml', '`{"file":"a.yml"}` does not have a valid subkey for include. Valid subkeys are: `local`, `project`, `remote`, `template`, `artifact`, `component`'],
    ['two kinds in one include', 'include:\n  - local: a.yml\n    template: b.yml', 'Each include must use only one of: `local`, `project`, `remote`, `template`, `artifact`, `component`'],
  ])('%s', async (_, text, error) => {
    const files = { 1: { 'ci/empty.yml': '  \n', 'ci/bad.yml': 'build:\n  script: [make\n' }, 2: {} };
    expect(await resolve(text, files)).toEqual({ ok: false, error });
  });

  it('stops a file that includes itself at GitLab’s limit of nested includes', async () => {
    const reader = memoryReader({ 1: { 'loop.yml': 'include: loop.yml\nloop:\n  script: [x]\n' } });
    const loaded = loadCiYaml('include: loop.yml\n');
    const expanded = await expandIncludes((loaded as { value: Record<string, unknown> }).value, HOME, reader);
    expect(expanded).toEqual({ ok: false, error: `Maximum of ${MAX_INCLUDES} nested includes are allowed!` });
    expect(reader.reads.length).toBe(MAX_INCLUDES);
  });

  it('allows exactly the limit of included files', async () => {
    const names = Array.from({ length: MAX_INCLUDES }, (_, i) => `f${i}.yml`);
    const files = Object.fromEntries(names.map((name, i) => [name, `job${i}:\n  script: [x]\n`]));
    const expanded = await resolve(`include: [${names.join(', ')}]\n`, { 1: files });
    expect(expanded.ok && Object.keys(expanded.value).length).toBe(MAX_INCLUDES);
  });
});

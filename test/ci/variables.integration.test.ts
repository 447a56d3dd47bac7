/**
 * Project CI/CD variables (`/projects/:id/variables`, GitLab's `lib/api/ci/variables.rb`) over
 * HTTP: the API with GitLab's answers and permissions, the project's limit, and what jobs get:
 * a runner speaking GitLab's protocol (test/ci/runner.ts) is handed the variables that apply to
 * its job (protected ones on protected branches only, environment scopes, file/masked/raw flags,
 * GitLab's precedence), read as the job is picked; rules see them when the pipeline is created.
 * Also `GET /projects/:id/pipelines/:pipeline_id/variables`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readPipeline } from '../../shared/ci/store/pipelines';
import { variablesOf } from '../../shared/ci/store/variables';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { createUser, newMember, ownedProject, unique, type OwnedProject, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, gitOk, localRepository, pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const DEVELOPER = 30;
const REPORTER = 20;
const MAINTAINER = 40;

type Variable = { key: string; value: string; public: boolean; masked: boolean; file?: boolean; raw?: boolean };

/** Creates a variable as the project's owner; the response as it came. */
function createVariable(project: OwnedProject, body: Record<string, unknown>, token = project.owner.token) {
  return api(`/projects/${project.id}/variables`, { method: 'POST', token, body });
}

/** Creates variables as the project's owner, ten at a time (each 201 asserted). */
async function createVariables(project: OwnedProject, bodies: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10) {
    const responses = await Promise.all(bodies.slice(i, i + 10).map((body) => createVariable(project, body)));
    for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(201);
  }
}

const scoped = (scope: string) => ({ 'filter[environment_scope]': scope });

describe('the project variables API', () => {
  let project: OwnedProject;

  beforeAll(async () => {
    project = await ownedProject('private');
  });

  it('creates, reads, lists, updates and deletes a variable with every field', async () => {
    // Arrange
    const body = { key: 'DEPLOY_TOKEN', value: 'glpat-0123456789', variable_type: 'file', protected: true, masked: true, raw: true, environment_scope: 'production', description: 'deploys' };

    // Act
    const created = await createVariable(project, body);
    const read = await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`, { token: project.owner.token });
    const listed = await api(`/projects/${project.id}/variables`, { token: project.owner.token });
    const updated = await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`, {
      method: 'PUT',
      token: project.owner.token,
      body: { value: 'changed value', variable_type: 'env_var', protected: false, masked: false, raw: false, environment_scope: 'staging', description: 'changed' },
    });
    const moved = await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`, { token: project.owner.token, query: scoped('staging') });
    const deleted = await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`, { method: 'DELETE', token: project.owner.token });
    const after = await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`, { token: project.owner.token });

    // Assert
    const entity = { variable_type: 'file', key: 'DEPLOY_TOKEN', value: 'glpat-0123456789', hidden: false, protected: true, masked: true, raw: true, environment_scope: 'production', description: 'deploys' };
    expect(created).toMatchObject({ status: 201, body: entity });
    expect(Object.keys(created.body)).toEqual(['variable_type', 'key', 'value', 'hidden', 'protected', 'masked', 'raw', 'environment_scope', 'description']);
    expect(read).toMatchObject({ status: 200, body: entity });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([entity]);
    expect(listed.headers.get('x-total')).toBe('1');
    const changed = { variable_type: 'env_var', key: 'DEPLOY_TOKEN', value: 'changed value', hidden: false, protected: false, masked: false, raw: false, environment_scope: 'staging', description: 'changed' };
    expect(updated).toMatchObject({ status: 200, body: changed });
    expect(moved).toMatchObject({ status: 200, body: changed });
    expect(deleted.status).toBe(204);
    expect(after).toMatchObject({ status: 404, body: { message: '404 Variable Not Found' } });
  });

  it('takes GitLab’s defaults, and an empty value', async () => {
    // Act
    const created = await createVariable(project, { key: unique('EMPTY_'), value: '' });

    // Assert
    expect(created).toMatchObject({
      status: 201,
      body: { variable_type: 'env_var', value: '', hidden: false, protected: false, masked: false, raw: false, environment_scope: '*', description: null },
    });
  });

  it.each([
    ['a key with other characters', { key: 'BAD-KEY', value: 'x' }, { message: { key: ["can contain only letters, digits and '_'."] } }],
    ['a key over 255 characters', { key: 'K'.repeat(256), value: 'x' }, { message: { key: ['is too long (maximum is 255 characters)'] } }],
    ['a value over 10,000 characters', { key: 'LONG', value: 'v'.repeat(10_001) }, { message: { value: ['is too long (maximum is 10000 characters)'] } }],
    ['a masked value under 8 characters', { key: 'SHORT', value: 'abc1234', masked: true }, { message: { value: ['is invalid'] } }],
    ['a masked value of two lines', { key: 'LINES', value: 'abcdefgh\nabcdefgh', masked: true }, { message: { value: ['is invalid'] } }],
    ['a masked value with a character outside the alphabet', { key: 'DOLLAR', value: 'abc$defgh', masked: true }, { message: { value: ['is invalid'] } }],
    ['a masked raw value with a space', { key: 'SPACE', value: 'abcd efgh', masked: true, raw: true }, { message: { value: ['is invalid'] } }],
    ['a scope with other characters', { key: 'SCOPE', value: 'x', environment_scope: 'prod#1' }, { message: { environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"] } }],
    ['an unknown type', { key: 'TYPE', value: 'x', variable_type: 'secret' }, { error: 'variable_type does not have a valid value' }],
    ['no value', { key: 'NO_VALUE' }, { error: 'value is missing' }],
    ['no key', { value: 'x' }, { error: 'key is missing' }],
  ])('refuses %s with GitLab’s 400', async (_case, body, answer) => {
    // Act
    const response = await createVariable(project, body);
    // Assert
    expect(response).toMatchObject({ status: 400, body: answer });
  });

  it('masks a raw value of any characters but white space', async () => {
    // Act
    const response = await createVariable(project, { key: unique('RAW_'), value: 'p@$$w0rd!#%', masked: true, raw: true });
    // Assert
    expect(response).toMatchObject({ status: 201, body: { masked: true, raw: true, value: 'p@$$w0rd!#%' } });
  });

  it('refuses a key taken in the same scope, takes it in another, and picks among scopes with filter[environment_scope]', async () => {
    // Arrange
    const key = unique('SCOPED_');
    expect((await createVariable(project, { key, value: 'everywhere' })).status).toBe(201);

    // Act
    const taken = await createVariable(project, { key, value: 'again' });
    const production = await createVariable(project, { key, value: 'in production', environment_scope: 'production' });
    const ambiguous = await api(`/projects/${project.id}/variables/${key}`, { token: project.owner.token });
    const filtered = await api(`/projects/${project.id}/variables/${key}`, { token: project.owner.token, query: scoped('production') });
    const unknownScope = await api(`/projects/${project.id}/variables/${key}`, { token: project.owner.token, query: scoped('staging') });
    const ambiguousUpdate = await api(`/projects/${project.id}/variables/${key}`, { method: 'PUT', token: project.owner.token, body: { value: 'x' } });
    const filteredUpdate = await api(`/projects/${project.id}/variables/${key}`, { method: 'PUT', token: project.owner.token, query: scoped('production'), body: { value: 'changed in production' } });
    const bodyFilteredUpdate = await api(`/projects/${project.id}/variables/${key}`, { method: 'PUT', token: project.owner.token, body: { value: 'changed everywhere', filter: { environment_scope: '*' } } });
    const movedOntoTaken = await api(`/projects/${project.id}/variables/${key}`, { method: 'PUT', token: project.owner.token, query: scoped('production'), body: { environment_scope: '*' } });
    const ambiguousDelete = await api(`/projects/${project.id}/variables/${key}`, { method: 'DELETE', token: project.owner.token });
    const filteredDelete = await api(`/projects/${project.id}/variables/${key}`, { method: 'DELETE', token: project.owner.token, query: scoped('production') });
    const single = await api(`/projects/${project.id}/variables/${key}`, { token: project.owner.token });

    // Assert
    expect(taken).toMatchObject({ status: 400, body: { message: { key: [`(${key}) has already been taken`] } } });
    expect(production).toMatchObject({ status: 201, body: { environment_scope: 'production' } });
    const conflict = { status: 409, body: { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" } };
    expect(ambiguous).toMatchObject(conflict);
    expect(filtered).toMatchObject({ status: 200, body: { value: 'in production', environment_scope: 'production' } });
    expect(unknownScope).toMatchObject({ status: 404, body: { message: '404 Variable Not Found' } });
    expect(ambiguousUpdate).toMatchObject(conflict);
    expect(filteredUpdate).toMatchObject({ status: 200, body: { value: 'changed in production', environment_scope: 'production' } });
    expect(bodyFilteredUpdate).toMatchObject({ status: 200, body: { value: 'changed everywhere', environment_scope: '*' } });
    expect(movedOntoTaken).toMatchObject({ status: 400, body: { message: { key: [`(${key}) has already been taken`] } } });
    expect(ambiguousDelete).toMatchObject(conflict);
    expect(filteredDelete.status).toBe(204);
    expect(single).toMatchObject({ status: 200, body: { value: 'changed everywhere', environment_scope: '*' } });
  });

  it('answers 404 for a key it does not have, on every route', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      // Act
      const response = await api(`/projects/${project.id}/variables/NO_SUCH_KEY`, { method, token: project.owner.token, ...(method === 'PUT' ? { body: { value: 'x' } } : {}) });
      // Assert
      expect(response, method).toMatchObject({ status: 404, body: { message: '404 Variable Not Found' } });
    }
    for (const key of [encodeURIComponent('A#B'), 'K'.repeat(2000)]) {
      expect(await api(`/projects/${project.id}/variables/${key}`, { token: project.owner.token })).toMatchObject({ status: 404, body: { message: '404 Variable Not Found' } });
    }
  });

  it('lets maintainers and admins in; a developer gets 403, a stranger 404, no token 401', async () => {
    // Arrange
    const key = unique('PERM_');
    expect((await createVariable(project, { key, value: 'x' })).status).toBe(201);
    const maintainer = await newMember(project, MAINTAINER);
    const developer = await newMember(project, DEVELOPER);
    const stranger = await createUser();

    // Act / Assert
    expect((await api(`/projects/${project.id}/variables/${key}`, { token: maintainer.token })).status).toBe(200);
    expect((await api(`/projects/${project.id}/variables/${key}`, { token: rootToken() })).status).toBe(200);
    expect((await createVariable(project, { key: unique('MAINT_'), value: 'x' }, maintainer.token)).status).toBe(201);
    for (const [method, path] of [['GET', ''], ['GET', `/${key}`], ['POST', ''], ['PUT', `/${key}`], ['DELETE', `/${key}`]] as const) {
      const request = { method, ...(method === 'POST' || method === 'PUT' ? { body: { key: unique('K_'), value: 'x' } } : {}) };
      expect(await api(`/projects/${project.id}/variables${path}`, { ...request, token: developer.token }), `${method} ${path} as developer`).toMatchObject({ status: 403 });
      expect(await api(`/projects/${project.id}/variables${path}`, { ...request, token: stranger.token }), `${method} ${path} as stranger`).toMatchObject({
        status: 404,
        body: { message: '404 Project Not Found' },
      });
      expect(await api(`/projects/${project.id}/variables${path}`, request), `${method} ${path} without token`).toMatchObject({ status: 401 });
    }
  });

  it('of parallel creates of one key and scope, lets exactly one win', async () => {
    // Arrange
    const key = unique('RACE_');

    // Act
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => createVariable(project, { key, value: `value ${i}` })));

    // Assert
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expect(response).toMatchObject({ status: 400, body: { message: { key: [`(${key}) has already been taken`] } } });
    }
    const listed = await api(`/projects/${project.id}/variables`, { token: project.owner.token, query: { per_page: 100 } });
    expect(listed.body.filter((variable: { key: string }) => variable.key === key)).toHaveLength(1);
  });

  it('never shows the value of a hidden variable, nor lets it be unmasked', async () => {
    // Arrange
    const key = unique('HIDDEN_');

    // Act
    const created = await createVariable(project, { key, value: 'hidden-value-42', masked_and_hidden: true });
    const read = await api(`/projects/${project.id}/variables/${key}`, { token: project.owner.token });
    const listed = await api(`/projects/${project.id}/variables`, { token: project.owner.token, query: { per_page: 100 } });
    const unmasked = await api(`/projects/${project.id}/variables/${key}`, { method: 'PUT', token: project.owner.token, body: { masked: false } });
    const changed = await api(`/projects/${project.id}/variables/${key}`, { method: 'PUT', token: project.owner.token, body: { value: 'another-hidden-value', description: 'rotated' } });
    const invalid = await createVariable(project, { key: unique('HIDDEN_'), value: 'short', masked_and_hidden: true });

    // Assert
    const hidden = { key, value: null, hidden: true, masked: true };
    expect(created).toMatchObject({ status: 201, body: hidden });
    expect(read).toMatchObject({ status: 200, body: hidden });
    expect(listed.body.find((variable: { key: string }) => variable.key === key)).toMatchObject(hidden);
    expect(unmasked).toMatchObject({ status: 400, body: { message: { base: ['The visibility setting cannot be changed for masked and hidden variables.'] } } });
    expect(changed).toMatchObject({ status: 200, body: { ...hidden, description: 'rotated' } });
    expect(JSON.stringify([created.body, read.body, listed.body, changed.body])).not.toMatch(/hidden-value-42|another-hidden-value/);
    expect(invalid).toMatchObject({ status: 400, body: { message: { value: ['is invalid'] } } });
  });
});

describe('the project limit', () => {
  it('holds 200 variables, listed by key, and refuses more, also when they are created in parallel', async () => {
    // Arrange
    const project = await ownedProject('private');
    await createVariables(project, Array.from({ length: 195 }, (_, i) => ({ key: `VAR_${String(i).padStart(3, '0')}`, value: `value ${i}` })));

    // Act
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => createVariable(project, { key: `LAST_${i}`, value: 'x' })));
    const firstPage = await api(`/projects/${project.id}/variables`, { token: project.owner.token, query: { per_page: 100 } });
    const lastPage = await api(`/projects/${project.id}/variables`, { token: project.owner.token, query: { per_page: 100, page: 2 } });
    const deleted = await api(`/projects/${project.id}/variables/VAR_000`, { method: 'DELETE', token: project.owner.token });
    const again = await createVariable(project, { key: 'AFTER_DELETE', value: 'x' });

    // Assert
    expect(racing.filter((response) => response.status === 201)).toHaveLength(5);
    for (const response of racing.filter((r) => r.status !== 201)) {
      expect(response).toMatchObject({ status: 400, body: { message: { base: ['Maximum number of project ci variables (200) exceeded'] } } });
    }
    expect(firstPage.headers.get('x-total')).toBe('200');
    const keys = [...firstPage.body, ...lastPage.body].map((variable: { key: string }) => variable.key);
    expect(keys).toHaveLength(200);
    expect(keys).toEqual([...keys].sort());
    expect(deleted.status).toBe(204);
    expect(again.status).toBe(201);
  });
});

describe.skipIf(!isLocalRuntime())('a job too large to send', () => {
  it('is dropped with scheduler_failure, and its runner is handed nothing', async () => {
    // Arrange: the suite's runtime caps a job's payload at 250,000 bytes (test/support/global-setup.ts).
    const project = await ownedProject('private');
    await createVariables(project, Array.from({ length: 26 }, (_, i) => ({ key: `BIG_${i}`, value: 'x'.repeat(10_000) })));
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': 'build:\n  script: [echo big]\n' });
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);

    // Act
    const handed: unknown[] = [];
    const dropped = await eventually(async () => {
      handed.push((await runner.requestJob()).job);
      const [job] = (await api(`/projects/${project.id}/jobs`, { token: project.owner.token })).body;
      expect(job?.status).toBe('failed');
      return job;
    });
    const pipeline = await api(`/projects/${project.id}/pipelines/${dropped.pipeline.id}`, { token: project.owner.token });

    // Assert
    expect(dropped).toMatchObject({ name: 'build', status: 'failed', failure_reason: 'scheduler_failure' });
    expect(handed.filter(Boolean)).toEqual([]);
    expect(pipeline.body.status).toBe('failed');
  });
});

describe.skipIf(!isLocalRuntime())('stored variables', () => {
  it('go with their project', async () => {
    // Arrange
    const project = await ownedProject('private');
    await createVariables(project, [{ key: 'GONE', value: 'with the project' }]);
    expect(await variablesOf({ kind: 'project', id: project.id })).toHaveLength(1);

    // Act
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(202);

    // Assert
    await eventually(async () => expect(await variablesOf({ kind: 'project', id: project.id })).toEqual([]));
  });
});

const CI = `
variables:
  PLAIN: from-yaml
  OVERRIDE: from-yaml
build:
  script: [echo build]
  rules:
    - if: $DEPLOY_ENABLED == "yes"
staging:
  script: [echo staging]
  environment: staging
review:
  script: [echo review]
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.$PLAIN.example.com
    deployment_tier: development
protected_only:
  script: [echo protected]
  rules:
    - if: $PROTECTED_ONE
never:
  script: [echo never]
  rules:
    - if: $DEPLOY_ENABLED == "yes"
      when: never
    - when: on_success
`;

describe('what a job gets', () => {
  let project: OwnedProject;
  /** Every job handed out, by `<ref> <source> <name>`, in the order picked. */
  const jobs = new Map<string, { variables: Variable[] }>();
  let firstPicked: string;
  let apiPipelineId: number;
  let developer: TestUser;

  /** The variables of a job named `<ref> <source> <name>`. */
  const variablesOf = (name: string): Variable[] => {
    const job = jobs.get(name);
    expect(job, `${name} among ${[...jobs.keys()].join(', ')}`).toBeDefined();
    return job!.variables;
  };
  /** The last entry of a key (what the runner sets). */
  const lastOf = (name: string, key: string) => variablesOf(name).filter((variable) => variable.key === key).at(-1);

  beforeAll(async () => {
    project = await ownedProject('private');
    developer = await newMember(project, DEVELOPER);
    await createVariables(project, [
      { key: 'PLAIN', value: 'from-project' },
      { key: 'OVERRIDE', value: 'from-project' },
      { key: 'DEPLOY_ENABLED', value: 'yes' },
      { key: 'PROTECTED_ONE', value: 'protected-value', protected: true },
      { key: 'FILE_ONE', value: 'file content\n', variable_type: 'file' },
      { key: 'MASKED_ONE', value: 'masked-value-123', masked: true },
      { key: 'HIDDEN_ONE', value: 'hidden-value-123', masked_and_hidden: true },
      { key: 'RAW_ONE', value: '$NOT_EXPANDED', raw: true },
      { key: 'SCOPED', value: 'any environment' },
      { key: 'SCOPED', value: 'staging only', environment_scope: 'staging' },
      { key: 'SCOPED', value: 'review apps', environment_scope: 'review/*' },
    ]);
    // The first push protects the default branch (GitLab's default branch protection); `feature` is not.
    const work = await localRepository({ '.gitlab-ci.yml': CI, 'README.md': '# variables\n' });
    const remote = cloneUrl(project.fullPath, project.owner.token);
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['push', '-q', remote, 'main:feature'], { cwd: work });
    const triggered = await api(`/projects/${project.id}/pipeline`, {
      token: developer.token,
      body: { ref: 'feature', variables: [{ key: 'OVERRIDE', value: 'from-pipeline' }, { key: 'PIPELINE_FILE', value: 'pipeline file', variable_type: 'file' }] },
    });
    expect(triggered.status, JSON.stringify(triggered.body)).toBe(201);
    apiPipelineId = triggered.body.id;

    // main: build, staging, review, protected_only; feature and the API's pipeline: build, staging, review.
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    const deadline = Date.now() + 30_000;
    while (jobs.size < 10 && Date.now() < deadline) {
      const { job } = await runner.requestJob();
      if (!job) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const value = (key: string) => (job.variables as Variable[]).find((variable) => variable.key === key)?.value;
      const name = `${value('CI_COMMIT_REF_NAME')} ${value('CI_PIPELINE_SOURCE')} ${job.job_info.name}`;
      jobs.set(name, job);
      expect((await runner.update(job, 'success')).status).toBe(200);
      // An edit applies to the jobs picked after it.
      if (jobs.size === 1) {
        firstPicked = name;
        const edited = await api(`/projects/${project.id}/variables/PLAIN`, { method: 'PUT', token: project.owner.token, body: { value: 'edited' } });
        expect(edited.status).toBe(200);
      }
    }
  });

  it('hands out the jobs rules selected with the project’s variables', () => {
    expect([...jobs.keys()].sort()).toEqual([
      'feature api build',
      'feature api review',
      'feature api staging',
      'feature push build',
      'feature push review',
      'feature push staging',
      'main push build',
      'main push protected_only',
      'main push review',
      'main push staging',
    ]);
  });

  it('gives a protected variable only to jobs of a protected branch', () => {
    expect(lastOf('main push build', 'PROTECTED_ONE')).toEqual({ key: 'PROTECTED_ONE', value: 'protected-value', public: false, masked: false });
    expect(lastOf('main push build', 'CI_COMMIT_REF_PROTECTED')?.value).toBe('true');
    expect(lastOf('feature push build', 'PROTECTED_ONE')).toBeUndefined();
    expect(lastOf('feature push build', 'CI_COMMIT_REF_PROTECTED')?.value).toBe('false');
  });

  it('marks file, masked and raw variables as gitlab-runner reads them; a hidden one is handed out', () => {
    expect(lastOf('feature push build', 'FILE_ONE')).toEqual({ key: 'FILE_ONE', value: 'file content\n', public: false, masked: false, file: true });
    expect(lastOf('feature push build', 'MASKED_ONE')).toEqual({ key: 'MASKED_ONE', value: 'masked-value-123', public: false, masked: true });
    expect(lastOf('feature push build', 'HIDDEN_ONE')).toEqual({ key: 'HIDDEN_ONE', value: 'hidden-value-123', public: false, masked: true });
    expect(lastOf('feature push build', 'RAW_ONE')).toEqual({ key: 'RAW_ONE', value: '$NOT_EXPANDED', public: false, masked: false, raw: true });
  });

  it('expands the environment’s name and URL with the job’s variables and gives the job GitLab’s CI_ENVIRONMENT_* variables', () => {
    const environment = (name: string) =>
      Object.fromEntries(variablesOf(name).filter((v) => v.key.startsWith('CI_ENVIRONMENT_')).map((v) => [v.key, v.value]));
    expect(environment('feature push review')).toEqual({
      CI_ENVIRONMENT_NAME: 'review/feature',
      CI_ENVIRONMENT_SLUG: expect.stringMatching(/^review-feature-[0-9a-z]{6}$/),
      CI_ENVIRONMENT_ACTION: 'start',
      CI_ENVIRONMENT_URL: expect.stringMatching(/^https:\/\/feature\.(from-project|edited)\.example\.com$/),
      CI_ENVIRONMENT_TIER: 'development',
    });
    // No `deployment_tier`: the environment's tier, guessed from its name (GitLab's `guess_tier`).
    expect(environment('feature push staging')).toEqual({ CI_ENVIRONMENT_NAME: 'staging', CI_ENVIRONMENT_SLUG: 'staging', CI_ENVIRONMENT_ACTION: 'start', CI_ENVIRONMENT_TIER: 'staging' });
    expect(environment('feature push build')).toEqual({});
  });

  it('gives the environment’s most specific scope last, and only `*` to a job without an environment', () => {
    expect(variablesOf('feature push build').filter((v) => v.key === 'SCOPED').map((v) => v.value)).toEqual(['any environment']);
    expect(variablesOf('feature push staging').filter((v) => v.key === 'SCOPED').map((v) => v.value)).toEqual(['any environment', 'staging only']);
    expect(variablesOf('feature push review').filter((v) => v.key === 'SCOPED').map((v) => v.value)).toEqual(['any environment', 'review apps']);
  });

  it('puts project variables after the file’s and the pipeline’s after them, so those win', () => {
    const keys = variablesOf('feature api build').map((variable) => variable.key);
    expect(keys.indexOf('CI_JOB_ID')).toBeLessThan(keys.lastIndexOf('PLAIN'));
    expect(variablesOf('feature api build').filter((v) => v.key === 'OVERRIDE').map((v) => v.value)).toEqual(['from-yaml', 'from-project', 'from-pipeline']);
    expect(lastOf('feature push build', 'OVERRIDE')?.value).toBe('from-project');
    expect(lastOf('feature api build', 'PIPELINE_FILE')).toEqual({ key: 'PIPELINE_FILE', value: 'pipeline file', public: false, masked: false, file: true });
  });

  it('reads the project’s variables when the job is picked: an edit applies to the next job', () => {
    expect(lastOf(firstPicked, 'PLAIN')?.value).toBe('from-project');
    for (const name of [...jobs.keys()].filter((name) => name !== firstPicked)) expect(lastOf(name, 'PLAIN')?.value, name).toBe('edited');
  });

  it.skipIf(!isLocalRuntime())('keeps the variables a pipeline was created with sealed in its item', async () => {
    const stored = (await readPipeline(apiPipelineId))!.pipeline;
    expect(stored.variables.map((variable) => [variable.key, variable.value, variable.valueSealed?.startsWith('v1:')])).toEqual([
      ['OVERRIDE', undefined, true],
      ['PIPELINE_FILE', undefined, true],
    ]);
    expect(JSON.stringify(stored)).not.toContain('from-pipeline');
  });

  it('shows a pipeline’s variables to maintainers and the developer who ran it, not to other developers nor reporters; a private project’s hide from anonymous callers (404)', async () => {
    // Arrange
    const otherDeveloper = await newMember(project, DEVELOPER);
    const reporter = await newMember(project, REPORTER);
    const pushed = (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token, query: { ref: 'main' } })).body[0];
    const path = `/projects/${project.id}/pipelines/${apiPipelineId}/variables`;

    // Act
    const asOwner = await api(path, { token: project.owner.token });
    const asTriggerer = await api(path, { token: developer.token });
    const asOtherDeveloper = await api(path, { token: otherDeveloper.token });
    const asReporter = await api(path, { token: reporter.token });
    const anonymous = await api(path);
    const ofPush = await api(`/projects/${project.id}/pipelines/${pushed.id}/variables`, { token: project.owner.token });
    const unknown = await api(`/projects/${project.id}/pipelines/999999999/variables`, { token: project.owner.token });

    // Assert
    const variables = [
      { variable_type: 'env_var', key: 'OVERRIDE', value: 'from-pipeline', raw: false },
      { variable_type: 'file', key: 'PIPELINE_FILE', value: 'pipeline file', raw: false },
    ];
    expect(asOwner).toMatchObject({ status: 200, body: variables });
    expect(asTriggerer).toMatchObject({ status: 200, body: variables });
    expect(asOtherDeveloper.status).toBe(403);
    expect(asReporter.status).toBe(403);
    expect(anonymous.status).toBe(404);
    expect(ofPush).toMatchObject({ status: 200, body: [] });
    expect(unknown.status).toBe(404);
  });
});

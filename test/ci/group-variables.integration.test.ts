/**
 * Group CI/CD variables (`/groups/:id/variables`, GitLab's `lib/api/group_variables.rb`) over
 * HTTP: the API with GitLab's answers and permissions (owners only), the group's limit, and what
 * jobs get: a runner (test/ci/runner.ts) picking a job of a project in a subgroup is handed the
 * variables of every group above the project, farthest first, then the project's, then the
 * pipeline's, so the nearest wins; protected ones on protected branches only. Pipeline rules see
 * them too. The validations are the project variables' own code (test/ci/variables.integration.test.ts
 * covers them); a couple of cases here show the group routes use it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { variablesOf } from '../../shared/ci/store/variables';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { addMember, createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { cloneUrl, gitOk, localRepository } from '../support/git';
import { TestRunner } from './runner';

const DEVELOPER = 30;
const MAINTAINER = 40;
const OWNER = 50;

type Variable = { key: string; value: string; public: boolean; masked: boolean; file?: boolean; raw?: boolean };
type Group = { id: number; fullPath: string };

/** Creates a variable of a group as `token`'s user; the response as it came. */
function createVariable(group: Group, body: Record<string, unknown>, token: string) {
  return api(`/groups/${group.id}/variables`, { method: 'POST', token, body });
}

/** Creates variables of a group, ten at a time (each 201 asserted). */
async function createVariables(group: Group, token: string, bodies: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10) {
    const responses = await Promise.all(bodies.slice(i, i + 10).map((body) => createVariable(group, body, token)));
    for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(201);
  }
}

const scoped = (scope: string) => ({ 'filter[environment_scope]': scope });

/** Takes jobs from `runner` until `count` were handed out (30 s at most), each reported a success without being run. */
async function pickJobs(runner: TestRunner, count: number): Promise<Array<{ variables: Variable[]; job_info: { name: string } }>> {
  const picked = [];
  for (const deadline = Date.now() + 30_000; picked.length < count && Date.now() < deadline; ) {
    const { job } = await runner.requestJob();
    if (job) {
      picked.push(job);
      expect((await runner.update(job, 'success')).status).toBe(200);
    } else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return picked;
}

describe('the group variables API', () => {
  let owner: TestUser;
  let group: Group;

  beforeAll(async () => {
    owner = await createUser();
    group = await createGroup(owner.token, { visibility: 'private' });
  });

  it('creates, reads, lists, updates and deletes a variable with every field, by id or path', async () => {
    // Arrange
    const body = { key: 'DEPLOY_TOKEN', value: 'glpat-0123456789', variable_type: 'file', protected: true, masked: true, raw: true, environment_scope: 'production', description: 'deploys' };

    // Act
    const created = await createVariable(group, body, owner.token);
    const read = await api(`/groups/${encodeURIComponent(group.fullPath)}/variables/DEPLOY_TOKEN`, { token: owner.token });
    const listed = await api(`/groups/${group.id}/variables`, { token: owner.token });
    const updated = await api(`/groups/${group.id}/variables/DEPLOY_TOKEN`, {
      method: 'PUT',
      token: owner.token,
      body: { value: 'changed value', variable_type: 'env_var', protected: false, masked: false, raw: false, environment_scope: 'staging', description: 'changed' },
    });
    const moved = await api(`/groups/${group.id}/variables/DEPLOY_TOKEN`, { token: owner.token, query: scoped('staging') });
    const deleted = await api(`/groups/${group.id}/variables/DEPLOY_TOKEN`, { method: 'DELETE', token: owner.token });
    const after = await api(`/groups/${group.id}/variables/DEPLOY_TOKEN`, { token: owner.token });
    const empty = await api(`/groups/${group.id}/variables`, { token: owner.token });

    // Assert
    const entity = { variable_type: 'file', key: 'DEPLOY_TOKEN', value: 'glpat-0123456789', hidden: false, protected: true, masked: true, raw: true, environment_scope: 'production', description: 'deploys' };
    expect(created).toMatchObject({ status: 201, body: entity });
    expect(Object.keys(created.body)).toEqual(['variable_type', 'key', 'value', 'hidden', 'protected', 'masked', 'raw', 'environment_scope', 'description']);
    expect(read).toMatchObject({ status: 200, body: entity });
    expect(listed).toMatchObject({ status: 200, body: [entity] });
    expect(listed.headers.get('x-total')).toBe('1');
    const changed = { ...entity, variable_type: 'env_var', value: 'changed value', protected: false, masked: false, raw: false, environment_scope: 'staging', description: 'changed' };
    expect([updated, moved].map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 200, body: changed },
      { status: 200, body: changed },
    ]);
    expect([deleted.status, after.status, after.body.message]).toEqual([204, 404, '404 GroupVariable Not Found']);
    expect(empty).toMatchObject({ status: 200, body: [] });
    expect(empty.headers.get('x-total')).toBe('0');
  });

  it.each([
    ['a key with other characters', { key: 'BAD-KEY', value: 'x' }, { message: { key: ["can contain only letters, digits and '_'."] } }],
    ['a masked value under 8 characters', { key: 'SHORT', value: 'abc1234', masked: true }, { message: { value: ['is invalid'] } }],
    ['a value over 10,000 characters', { key: 'LONG', value: 'v'.repeat(10_001) }, { message: { value: ['is too long (maximum is 10000 characters)'] } }],
    ['no value', { key: 'NO_VALUE' }, { error: 'value is missing' }],
  ])('refuses %s with GitLab’s 400, as for a project', async (_case, body, answer) => {
    // Act
    const response = await createVariable(group, body, owner.token);
    // Assert
    expect(response).toMatchObject({ status: 400, body: answer });
  });

  it('hides a masked and hidden variable’s value', async () => {
    // Act
    const created = await createVariable(group, { key: unique('HIDDEN_'), value: 'hidden-value-42', masked_and_hidden: true }, owner.token);
    // Assert
    expect(created).toMatchObject({ status: 201, body: { value: null, hidden: true, masked: true } });
  });

  it('refuses a key taken in the same scope, takes it in another; a PUT without filter changes the key’s first variable, as GitLab’s does', async () => {
    // Arrange
    const key = unique('SCOPED_');
    expect((await createVariable(group, { key, value: 'everywhere' }, owner.token)).status).toBe(201);

    // Act
    const taken = await createVariable(group, { key, value: 'again' }, owner.token);
    const production = await createVariable(group, { key, value: 'in production', environment_scope: 'production' }, owner.token);
    const ambiguous = await api(`/groups/${group.id}/variables/${key}`, { token: owner.token });
    const filtered = await api(`/groups/${group.id}/variables/${key}`, { token: owner.token, query: scoped('production') });
    const unfilteredUpdate = await api(`/groups/${group.id}/variables/${key}`, { method: 'PUT', token: owner.token, body: { value: 'changed first' } });
    const filteredUpdate = await api(`/groups/${group.id}/variables/${key}`, { method: 'PUT', token: owner.token, query: scoped('production'), body: { value: 'changed in production' } });
    const ambiguousDelete = await api(`/groups/${group.id}/variables/${key}`, { method: 'DELETE', token: owner.token });
    const filteredDelete = await api(`/groups/${group.id}/variables/${key}`, { method: 'DELETE', token: owner.token, query: scoped('production') });
    const single = await api(`/groups/${group.id}/variables/${key}`, { token: owner.token });

    // Assert
    expect(taken).toMatchObject({ status: 400, body: { message: { key: [`(${key}) has already been taken`] } } });
    expect(production).toMatchObject({ status: 201, body: { environment_scope: 'production' } });
    const conflict = { status: 409, body: { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" } };
    expect(ambiguous).toMatchObject(conflict);
    expect(filtered).toMatchObject({ status: 200, body: { value: 'in production' } });
    expect(unfilteredUpdate).toMatchObject({ status: 200, body: { value: 'changed first', environment_scope: '*' } });
    expect(filteredUpdate).toMatchObject({ status: 200, body: { value: 'changed in production', environment_scope: 'production' } });
    expect(ambiguousDelete).toMatchObject(conflict);
    expect(filteredDelete.status).toBe(204);
    expect(single).toMatchObject({ status: 200, body: { value: 'changed first', environment_scope: '*' } });
  });

  it('lets owners (also of a parent group) and admins in; a maintainer or developer gets 403, a stranger 404, no token 401', async () => {
    // Arrange
    const key = unique('PERM_');
    expect((await createVariable(group, { key, value: 'x' }, owner.token)).status).toBe(201);
    const subgroup = await createGroup(owner.token, { parent_id: group.id });
    const secondOwner = await createUser();
    const maintainer = await createUser();
    const developer = await createUser();
    const stranger = await createUser();
    await addMember('groups', group.id, secondOwner.id, OWNER);
    await addMember('groups', group.id, maintainer.id, MAINTAINER);
    await addMember('groups', group.id, developer.id, DEVELOPER);

    // Act / Assert
    expect((await api(`/groups/${group.id}/variables/${key}`, { token: secondOwner.token })).status).toBe(200);
    expect((await api(`/groups/${group.id}/variables/${key}`, { token: rootToken() })).status).toBe(200);
    expect((await createVariable(subgroup, { key: unique('INHERITED_'), value: 'x' }, secondOwner.token)).status).toBe(201);
    for (const [method, path] of [['GET', ''], ['GET', `/${key}`], ['POST', ''], ['PUT', `/${key}`], ['DELETE', `/${key}`]] as const) {
      const request = { method, ...(method === 'POST' || method === 'PUT' ? { body: { key: unique('K_'), value: 'x' } } : {}) };
      for (const [who, user] of [['maintainer', maintainer], ['developer', developer]] as const) {
        expect(await api(`/groups/${group.id}/variables${path}`, { ...request, token: user.token }), `${method} ${path} as ${who}`).toMatchObject({ status: 403 });
        expect(await api(`/groups/${subgroup.id}/variables${path}`, { ...request, token: user.token }), `${method} ${path} of the subgroup as ${who}`).toMatchObject({ status: 403 });
      }
      expect(await api(`/groups/${group.id}/variables${path}`, { ...request, token: stranger.token }), `${method} ${path} as stranger`).toMatchObject({
        status: 404,
        body: { message: '404 Group Not Found' },
      });
      expect(await api(`/groups/${group.id}/variables${path}`, request), `${method} ${path} without token`).toMatchObject({ status: 401 });
    }
    expect(await api('/groups/999999999/variables', { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('of parallel creates of one key and scope, lets exactly one win', async () => {
    // Arrange
    const key = unique('RACE_');

    // Act
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => createVariable(group, { key, value: `value ${i}` }, owner.token)));

    // Assert
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expect(response).toMatchObject({ status: 400, body: { message: { key: [`(${key}) has already been taken`] } } });
    }
    const listed = await api(`/groups/${group.id}/variables`, { token: owner.token, query: { per_page: 100 } });
    expect(listed.body.filter((variable: { key: string }) => variable.key === key)).toHaveLength(1);
  });
});

describe('the group limit', () => {
  it('holds 200 variables and refuses more, also when they are created in parallel', async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token);
    await createVariables(group, owner.token, Array.from({ length: 195 }, (_, i) => ({ key: `VAR_${String(i).padStart(3, '0')}`, value: `value ${i}` })));

    // Act
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => createVariable(group, { key: `LAST_${i}`, value: 'x' }, owner.token)));
    const listed = await api(`/groups/${group.id}/variables`, { token: owner.token, query: { per_page: 100 } });
    const deleted = await api(`/groups/${group.id}/variables/VAR_000`, { method: 'DELETE', token: owner.token });
    const again = await createVariable(group, { key: 'AFTER_DELETE', value: 'x' }, owner.token);

    // Assert
    expect(racing.filter((response) => response.status === 201)).toHaveLength(5);
    for (const response of racing.filter((r) => r.status !== 201)) {
      expect(response).toMatchObject({ status: 400, body: { message: { base: ['Maximum number of group ci variables (200) exceeded'] } } });
    }
    expect(listed.headers.get('x-total')).toBe('200');
    expect(deleted.status).toBe(204);
    expect(again.status).toBe(201);
  });
});

describe.skipIf(!isLocalRuntime())('stored group variables', () => {
  it('go with their group and its subgroups', async () => {
    // Arrange
    const owner = await createUser();
    const group = await createGroup(owner.token);
    const subgroup = await createGroup(owner.token, { parent_id: group.id });
    await createVariables(group, owner.token, [{ key: 'GONE', value: 'with the group' }]);
    await createVariables(subgroup, owner.token, [{ key: 'GONE', value: 'with the subgroup' }]);
    expect(await variablesOf({ kind: 'group', id: group.id })).toHaveLength(1);

    // Act
    expect((await api(`/groups/${group.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);
    const late = await createVariable(group, { key: 'LATE', value: 'x' }, owner.token);

    // Assert
    expect(late).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    await eventually(async () => {
      expect(await variablesOf({ kind: 'group', id: group.id })).toEqual([]);
      expect(await variablesOf({ kind: 'group', id: subgroup.id })).toEqual([]);
    });
  });
});

const CI = `
build:
  script: [echo build]
staging:
  script: [echo staging]
  environment: staging
gated_by_group:
  script: [echo gated]
  rules:
    - if: $GROUP_GATE == "open"
gated_by_nearest:
  script: [echo nearest]
  rules:
    - if: $NEAR == "subgroup"
`;

describe('what a job of a project in a subgroup gets', () => {
  /** Every job handed out, by `<ref> <source> <name>`. */
  const jobs = new Map<string, { variables: Variable[] }>();

  /** The values of a key in a job's variables, in the order handed out (the runner sets the last). */
  const valuesOf = (name: string, key: string): string[] => {
    const job = jobs.get(name);
    expect(job, `${name} among ${[...jobs.keys()].join(', ')}`).toBeDefined();
    return job!.variables.filter((variable) => variable.key === key).map((variable) => variable.value);
  };

  beforeAll(async () => {
    const owner = await createUser();
    const top = await createGroup(owner.token, { visibility: 'private' });
    const middle = await createGroup(owner.token, { parent_id: top.id });
    const subgroup = await createGroup(owner.token, { parent_id: middle.id });
    const project = await createProject(owner.token, { namespace_id: subgroup.id });
    const unrelated = await createGroup(owner.token);
    await createVariables(top, owner.token, [
      { key: 'NEAR', value: 'top' },
      { key: 'LAYERED', value: 'top' },
      { key: 'TOP_ONLY', value: 'top only' },
      { key: 'GROUP_GATE', value: 'open' },
      { key: 'GROUP_PROTECTED', value: 'protected-value', protected: true },
      { key: 'GROUP_SCOPED', value: 'any environment' },
      { key: 'GROUP_SCOPED', value: 'staging only', environment_scope: 'staging' },
      { key: 'GROUP_MASKED', value: 'masked-value-123', masked: true },
    ]);
    await createVariables(middle, owner.token, [{ key: 'NEAR', value: 'middle' }]);
    await createVariables(subgroup, owner.token, [
      { key: 'NEAR', value: 'subgroup' },
      { key: 'LAYERED', value: 'subgroup' },
      { key: 'OVERRIDE', value: 'subgroup' },
    ]);
    await createVariables(unrelated, owner.token, [{ key: 'UNRELATED', value: 'not mine' }]);
    for (const body of [
      { key: 'LAYERED', value: 'project' },
      { key: 'OVERRIDE', value: 'project' },
    ]) {
      expect((await api(`/projects/${project.id}/variables`, { method: 'POST', token: owner.token, body })).status).toBe(201);
    }
    // The first push protects the default branch; `feature` is not protected.
    const work = await localRepository({ '.gitlab-ci.yml': CI, 'README.md': '# group variables\n' });
    const remote = cloneUrl(project.fullPath, owner.token);
    await gitOk(['push', '-q', remote, 'main'], { cwd: work });
    await gitOk(['push', '-q', remote, 'main:feature'], { cwd: work });
    const triggered = await api(`/projects/${project.id}/pipeline`, { token: owner.token, body: { ref: 'feature', variables: [{ key: 'OVERRIDE', value: 'pipeline' }] } });
    expect(triggered.status, JSON.stringify(triggered.body)).toBe(201);

    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: owner.token })).body.runners_token);
    for (const job of await pickJobs(runner, 12)) {
      const value = (key: string) => job.variables.find((variable) => variable.key === key)?.value;
      jobs.set(`${value('CI_COMMIT_REF_NAME')} ${value('CI_PIPELINE_SOURCE')} ${job.job_info.name}`, job);
    }
  });

  it('creates the jobs whose rules the groups’ variables select, the nearest group’s value deciding', () => {
    expect([...jobs.keys()].sort()).toEqual(
      ['feature api', 'feature push', 'main push'].flatMap((pipeline) => ['build', 'gated_by_group', 'gated_by_nearest', 'staging'].map((name) => `${pipeline} ${name}`)),
    );
  });

  it('hands out the groups’ variables farthest first, so the nearest group wins, then the project’s and the pipeline’s', () => {
    expect(valuesOf('feature push build', 'NEAR')).toEqual(['top', 'middle', 'subgroup']);
    expect(valuesOf('feature push build', 'LAYERED')).toEqual(['top', 'subgroup', 'project']);
    expect(valuesOf('feature push build', 'OVERRIDE')).toEqual(['subgroup', 'project']);
    expect(valuesOf('feature api build', 'OVERRIDE')).toEqual(['subgroup', 'project', 'pipeline']);
    expect(valuesOf('feature push build', 'TOP_ONLY')).toEqual(['top only']);
    expect(valuesOf('feature push build', 'UNRELATED')).toEqual([]);
    const masked = jobs.get('feature push build')!.variables.find((variable) => variable.key === 'GROUP_MASKED');
    expect(masked).toEqual({ key: 'GROUP_MASKED', value: 'masked-value-123', public: false, masked: true });
  });

  it('gives a group’s protected variable only to jobs of a protected branch', () => {
    expect(valuesOf('main push build', 'GROUP_PROTECTED')).toEqual(['protected-value']);
    expect(valuesOf('feature push build', 'GROUP_PROTECTED')).toEqual([]);
  });

  it('gives a group’s variable of the job’s environment after its `*` one', () => {
    expect(valuesOf('feature push staging', 'GROUP_SCOPED')).toEqual(['any environment', 'staging only']);
    expect(valuesOf('feature push build', 'GROUP_SCOPED')).toEqual(['any environment']);
  });
});

/**
 * Instance-level CI/CD variables (`/admin/ci/variables`) as GitLab's admin API has them: admins
 * only, no environment scope, GitLab's errors; every job gets them first, so a group's, project's
 * or pipeline's variable of the same key wins. Keys are unique to this file: the instance's
 * variables reach every job of the runtime, and they are deleted at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createGroup, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

/* eslint-disable @typescript-eslint/no-explicit-any -- the job payload is read field by field */
describe('instance-level CI/CD variables', () => {
  const only = unique('INST_ONLY_').toUpperCase();
  const layered = unique('INST_LAYERED_').toUpperCase();
  const admin = { token: rootToken() };
  let user: TestUser;

  beforeAll(async () => {
    user = await createUser();
  });

  afterAll(async () => {
    for (const key of [only, layered]) await api(`/admin/ci/variables/${key}`, { ...admin, method: 'DELETE' });
  });

  it('is the admins’ API: create, read, list, update, delete, with GitLab’s answers', async () => {
    const createdOne = await api('/admin/ci/variables', { ...admin, body: { key: only, value: 'from the instance', masked: false, environment_scope: 'production' } });
    expect(createdOne).toMatchObject({
      status: 201,
      body: { key: only, value: 'from the instance', variable_type: 'env_var', protected: false, masked: false, raw: false, hidden: false, description: null },
    });
    expect(createdOne.body).not.toHaveProperty('environment_scope');
    expect(await api('/admin/ci/variables', { ...admin, body: { key: only, value: 'again' } })).toMatchObject({ status: 400, body: { message: { key: [`(${only}) has already been taken`] } } });
    expect(await api('/admin/ci/variables', { ...admin, body: { key: 'NO_VALUE' } })).toMatchObject({ status: 400, body: { error: 'value is missing' } });
    expect(await api('/admin/ci/variables', { ...admin, body: { key: unique('M').toUpperCase(), value: 'short', masked: true } })).toMatchObject({ status: 400, body: { message: { value: ['is invalid'] } } });

    expect((await api(`/admin/ci/variables/${only}`, admin)).body).toMatchObject({ key: only, value: 'from the instance' });
    expect((await api('/admin/ci/variables', admin)).body.map((variable: any) => variable.key)).toContain(only);
    expect(await api(`/admin/ci/variables/${only}`, { ...admin, method: 'PUT', body: { value: 'changed value', protected: true, description: 'd' } })).toMatchObject({
      status: 200,
      body: { key: only, value: 'changed value', protected: true, description: 'd' },
    });
    expect(await api(`/admin/ci/variables/${only}`, { ...admin, method: 'PUT', body: { protected: false } })).toMatchObject({ status: 200, body: { protected: false } });
    expect(await api('/admin/ci/variables/NOT_THERE_AT_ALL', admin)).toMatchObject({ status: 404, body: { message: '404 InstanceVariable Not Found' } });

    for (const [method, path] of [['GET', '/admin/ci/variables'], ['POST', '/admin/ci/variables'], ['PUT', `/admin/ci/variables/${only}`], ['DELETE', `/admin/ci/variables/${only}`]] as const) {
      expect(await api(path, { token: user.token, method, body: method === 'GET' ? undefined : { key: 'X', value: 'y' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    expect((await api('/admin/ci/variables')).status).toBe(401);

    const temporary = unique('INST_TMP_').toUpperCase();
    expect((await api('/admin/ci/variables', { ...admin, body: { key: temporary, value: 'x' } })).status).toBe(201);
    expect((await api(`/admin/ci/variables/${temporary}`, { ...admin, method: 'DELETE' })).status).toBe(204);
    expect((await api(`/admin/ci/variables/${temporary}`, admin)).status).toBe(404);
  });

  it('hands every job the instance’s variables first: a group’s of the same key comes after them and wins', async () => {
    expect((await api('/admin/ci/variables', { ...admin, body: { key: layered, value: 'instance' } })).status).toBe(201);
    expect((await api(`/admin/ci/variables/${only}`, admin)).status).toBe(200);
    const group = await createGroup(user.token);
    const project = await createProject(user.token, { namespace_id: group.id });
    expect((await api(`/groups/${group.id}/variables`, { token: user.token, body: { key: layered, value: 'group' } })).status).toBe(201);
    await pushNewRepository(project.fullPath, user.token, { '.gitlab-ci.yml': 'job:\n  script: [echo hi]\n' });

    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: user.token })).body.runners_token);
    const job = await runner.pickNext();
    const values = (key: string) => job.variables.filter((variable: any) => variable.key === key).map((variable: any) => variable.value);
    expect(values(only)).toEqual(['changed value']);
    expect(values(layered)).toEqual(['instance', 'group']);
    const keys = job.variables.map((variable: any) => variable.key);
    expect(keys.indexOf(layered)).toBeLessThan(keys.lastIndexOf(layered));
  });
});

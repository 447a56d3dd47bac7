/**
 * Pipeline names (GitLab's pipeline metadata): `workflow:name` expanded with the pipeline's
 * variables and its matching workflow rule's, shown by the pipelines list and a pipeline's
 * details, filtered on with `name=`, and changed with `PUT …/pipelines/:pipeline_id/metadata`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';

const CI = `
variables: { NAME_PART: default }
workflow:
  name: '  Pipeline for $NAME_PART ($CI_PIPELINE_SOURCE)  '
  rules:
    - if: $CI_PIPELINE_SOURCE == "push"
      variables: { NAME_PART: "push to $CI_COMMIT_BRANCH" }
    - when: always
job: { script: echo }
`;

describe('pipeline names', () => {
  let project: OwnedProject;
  let pushed: number;

  beforeAll(async () => {
    project = await ownedProject('private');
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI });
    const [first] = (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token })).body;
    pushed = first.id;
  });

  it('names pipelines from workflow:name, rule and pipeline variables expanded; lists and filters by name', async () => {
    const token = project.owner.token;
    const created = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token, body: { ref: 'main', variables: [{ key: 'NAME_PART', value: 'an API run' }] } });
    expect(created.status).toBe(201);
    // The create answer is GitLab's `Pipeline` entity, without the metadata.
    expect(created.body).not.toHaveProperty('name');
    const plain = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token, body: { ref: 'main' } });
    const single = await api(`/projects/${project.id}/pipelines/${created.body.id}`, { token });
    expect(single.body).toMatchObject({ id: created.body.id, name: 'Pipeline for an API run (api)', status: expect.any(String) });
    const list = await api(`/projects/${project.id}/pipelines`, { token });
    expect(list.body.map((pipeline: { id: number; name: string }) => [pipeline.id, pipeline.name])).toEqual([
      [plain.body.id, 'Pipeline for default (api)'],
      [created.body.id, 'Pipeline for an API run (api)'],
      [pushed, 'Pipeline for push to main (push)'],
    ]);
    const filtered = await api(`/projects/${project.id}/pipelines`, { token, query: { name: 'Pipeline for default (api)' } });
    expect(filtered.body.map((pipeline: { id: number }) => pipeline.id)).toEqual([plain.body.id]);
    expect((await api(`/projects/${project.id}/pipelines`, { token, query: { name: 'Pipeline for' } })).body).toEqual([]);
  });

  it('renames a pipeline with PUT …/metadata, with GitLab’s errors and permissions', async () => {
    const url = `/projects/${project.id}/pipelines/${pushed}/metadata`;
    const token = project.owner.token;
    expect(await api(url, { method: 'PUT', token, body: {} })).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    expect(await api(url, { method: 'PUT', token, body: { name: '   ' } })).toMatchObject({ status: 400, body: { message: 'Failed to update pipeline - Name is too short (minimum is 1 character)' } });
    expect(await api(url, { method: 'PUT', token, body: { name: 'x'.repeat(256) } })).toMatchObject({ status: 400, body: { message: 'Failed to update pipeline - Name is too long (maximum is 255 characters)' } });
    const reporter = await newMember(project, 20);
    expect((await api(url, { method: 'PUT', token: reporter.token, body: { name: 'nope' } })).status).toBe(403);
    expect((await api(`/projects/${project.id}/pipelines/999999999/metadata`, { method: 'PUT', token, body: { name: 'x' } })).status).toBe(404);
    const renamed = await api(url, { method: 'PUT', token, body: { name: '  Nightly build ' } });
    expect(renamed).toMatchObject({ status: 200, body: { id: pushed, name: 'Nightly build', detailed_status: expect.any(Object) } });
    const listed = await api(`/projects/${project.id}/pipelines`, { token, query: { name: 'Nightly build' } });
    expect(listed.body.map((pipeline: { id: number }) => pipeline.id)).toEqual([pushed]);
  });
});

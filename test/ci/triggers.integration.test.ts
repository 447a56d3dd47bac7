/**
 * Pipeline trigger tokens (`/projects/:id/triggers`, GitLab's `lib/api/ci/triggers.rb`) and the
 * pipelines they create (`POST /projects/:id/trigger/pipeline`) over HTTP: who manages
 * them and who sees the whole token (its owner only), the token never stored in clear, a triggered
 * pipeline run as the token's owner with source `trigger` whose job (picked by a runner speaking
 * GitLab's protocol) gets the variables, a running job's token triggering with source `pipeline`,
 * bad and deleted tokens answered 404; and `GET /projects/:id/pipelines/latest`.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ciCollections, ciKeys } from '../../shared/ci/store/keys';
import { getItem, queryAll } from '../../shared/platform/dynamo/query';
import { api, isLocalRuntime } from '../support/api';
import { eventually } from '../support/eventually';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const MAINTAINER = 40;
const DEVELOPER = 30;

const CI = `
triggered:
  script: [echo "deploying to $DEPLOY_TARGET"]
  rules:
    - if: $CI_PIPELINE_SOURCE == "trigger"
downstream:
  script: [echo downstream]
  rules:
    - if: $CI_PIPELINE_SOURCE == "pipeline"
`;

type Variable = { key: string; value: string; file?: boolean };

/* eslint-disable @typescript-eslint/no-explicit-any -- the job payload is read field by field */

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('pipeline trigger tokens', () => {
  let project: OwnedProject;
  let maintainer: TestUser;
  let created: any;

  beforeAll(async () => {
    project = await ownedProject('private');
    maintainer = await newMember(project, MAINTAINER);
    created = await api(`/projects/${project.id}/triggers`, { method: 'POST', token: project.owner.token, form: form({ description: 'deploys' }) });
  });

  it('shows the whole token to its owner only, lets only maintainers manage tokens and only the owner change one', async () => {
    // Arrange
    const developer = await newMember(project, DEVELOPER);
    const stranger = await createUser();
    const path = `/projects/${project.id}/triggers/${created.body.id}`;

    // Act
    const ownerList = await api(`/projects/${project.id}/triggers`, { token: project.owner.token });
    const maintainerList = await api(`/projects/${project.id}/triggers`, { token: maintainer.token });
    const maintainerRead = await api(path, { token: maintainer.token });
    const maintainerEdit = await api(path, { method: 'PUT', token: maintainer.token, body: { description: 'taken over' } });
    const ownerEdit = await api(path, { method: 'PUT', token: project.owner.token, body: { description: 'deploys to staging' } });
    const developerList = await api(`/projects/${project.id}/triggers`, { token: developer.token });
    const developerCreate = await api(`/projects/${project.id}/triggers`, { method: 'POST', token: developer.token, body: { description: 'x' } });
    const strangerList = await api(`/projects/${project.id}/triggers`, { token: stranger.token });
    const anonymousList = await api(`/projects/${project.id}/triggers`);
    const noDescription = await api(`/projects/${project.id}/triggers`, { method: 'POST', token: project.owner.token, body: {} });
    const missing = await api(`/projects/${project.id}/triggers/999999999`, { token: project.owner.token });

    // Assert
    const token: string = created.body.token;
    expect(created.status).toBe(201);
    expect(token).toMatch(/^glptt-[0-9a-f]{40}$/);
    expect(Object.keys(created.body)).toEqual(['id', 'token', 'description', 'created_at', 'updated_at', 'last_used', 'expires_at', 'owner']);
    expect(created.body).toMatchObject({ description: 'deploys', last_used: null, expires_at: null, owner: { id: project.owner.id, username: project.owner.username } });
    expect(ownerList).toMatchObject({ status: 200, body: [{ id: created.body.id, token }] });
    const short = token.slice('glptt-'.length, 'glptt-'.length + 4);
    expect(maintainerList).toMatchObject({ status: 200, body: [{ id: created.body.id, token: short, owner: { id: project.owner.id } }] });
    expect(maintainerRead).toMatchObject({ status: 200, body: { id: created.body.id, token: short } });
    expect(maintainerEdit).toMatchObject({ status: 403, body: { message: '403 Forbidden - The current user is not authorized to update the pipeline trigger token' } });
    expect(ownerEdit).toMatchObject({ status: 200, body: { description: 'deploys to staging', token } });
    expect(developerList).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(developerCreate.status).toBe(403);
    expect(strangerList).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(anonymousList.status).toBe(401);
    expect(noDescription).toMatchObject({ status: 400, body: { error: 'description is missing' } });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it.skipIf(!isLocalRuntime())('stores the token only sealed, beside its digest, and deletes both with the project', async () => {
    // Act
    const token: string = created.body.token;
    const pointerKey = ciKeys.triggerToken(createHash('sha256').update(token).digest('hex'));
    const items = await queryAll(ciCollections.triggers(project.id));
    const pointer = await getItem(pointerKey);
    const deleted = await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token });

    // Assert
    expect(items).toHaveLength(1);
    expect(items[0].tokenSealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(pointer).toMatchObject({ projectId: project.id, triggerId: created.body.id });
    expect(JSON.stringify([items, pointer])).not.toContain(token.slice('glptt-'.length));
    expect(deleted.status).toBe(202);
    await eventually(async () => expect([await queryAll(ciCollections.triggers(project.id)), await getItem(pointerKey)]).toEqual([[], undefined]));
  });
});

describe('triggering pipelines', () => {
  let project: OwnedProject;
  let runner: TestRunner;
  let token: string;

  beforeAll(async () => {
    project = await ownedProject('private');
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI, 'README.md': '# triggers\n' });
    runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    token = (await api(`/projects/${project.id}/triggers`, { method: 'POST', token: project.owner.token, body: { description: 'ci' } })).body.token;
  });

  it('runs a pipeline as the token’s owner whose job gets the variables and source `trigger`; a running job’s token triggers too', async () => {
    // Act: curl -F style, without any user token
    const triggered = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', form: form({ token, ref: 'main', 'variables[DEPLOY_TARGET]': 'staging' }) });
    const job = await runner.pickNext();
    // python-gitlab's `trigger_pipeline`: JSON with bracketed names; then a JSON object of variables
    const fromJson = await api(`/projects/${encodeURIComponent(project.fullPath)}/trigger/pipeline`, { method: 'POST', body: { ref: 'main', token, 'variables[DEPLOY_TARGET]': 'production' } });
    const asObject = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token, ref: 'main', variables: { DEPLOY_TARGET: 'review' } } });
    const fromJob = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token: job.token, ref: 'main' } });
    const pipelineVariables = await api(`/projects/${project.id}/pipelines/${fromJson.body.id}/variables`, { token: project.owner.token });
    const trigger = (await api(`/projects/${project.id}/triggers`, { token: project.owner.token })).body[0];
    // GitLab's webhook form: the ref in the path, the token and variables in the query, the sender's payload as the body.
    const viaWebhook = await api(`/projects/${project.id}/ref/main/trigger/pipeline`, { method: 'POST', query: { token, 'variables[DEPLOY_TARGET]': 'hook' }, body: { object_kind: 'push' } });
    const webhookVariables = await api(`/projects/${project.id}/pipelines/${viaWebhook.body.id}/variables`, { token: project.owner.token });

    // Assert
    expect(triggered).toMatchObject({ status: 201, body: { ref: 'main', source: 'trigger', status: 'pending', user: { id: project.owner.id } } });
    const variables: Variable[] = job.variables;
    const value = (key: string) => variables.filter((variable) => variable.key === key).at(-1)?.value;
    expect(value('CI_PIPELINE_ID')).toBe(String(triggered.body.id));
    expect(value('DEPLOY_TARGET')).toBe('staging');
    expect(value('CI_PIPELINE_SOURCE')).toBe('trigger');
    expect(value('CI_PIPELINE_TRIGGERED')).toBe('true');
    expect(variables.find((variable) => variable.key === 'TRIGGER_PAYLOAD')).toMatchObject({ file: true });
    expect(JSON.parse(value('TRIGGER_PAYLOAD')!)).toMatchObject({ ref: 'main', variables: { DEPLOY_TARGET: 'staging' } });
    expect(value('TRIGGER_PAYLOAD')).not.toContain(token);
    expect(fromJson).toMatchObject({ status: 201, body: { source: 'trigger' } });
    expect(pipelineVariables.body).toContainEqual(expect.objectContaining({ key: 'DEPLOY_TARGET', value: 'production', variable_type: 'env_var' }));
    expect(asObject).toMatchObject({ status: 201, body: { ref: 'main', source: 'trigger' } });
    expect(fromJob).toMatchObject({ status: 201, body: { source: 'pipeline', user: { id: project.owner.id } } });
    expect(trigger.last_used).toBe(asObject.body.created_at);
    expect(viaWebhook).toMatchObject({ status: 201, body: { ref: 'main', source: 'trigger' } });
    expect(webhookVariables.body).toContainEqual(expect.objectContaining({ key: 'DEPLOY_TARGET', value: 'hook' }));
  });

  it('refuses bad tokens, bad variables and refs as GitLab; deleted and expired tokens do not work', async () => {
    // Arrange
    const doomed = (await api(`/projects/${project.id}/triggers`, { method: 'POST', token: project.owner.token, body: { description: 'doomed' } })).body;
    const expired = (await api(`/projects/${project.id}/triggers`, { method: 'POST', token: project.owner.token, body: { description: 'expired', expires_at: '2020-01-01' } })).body;
    const other = await ownedProject('private');
    const otherToken = (await api(`/projects/${other.id}/triggers`, { method: 'POST', token: other.owner.token, body: { description: 'elsewhere' } })).body.token;

    // Act
    const before = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token: doomed.token, ref: 'main' } });
    const deleted = await api(`/projects/${project.id}/triggers/${doomed.id}`, { method: 'DELETE', token: project.owner.token });
    const after = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token: doomed.token, ref: 'main' } });
    const afterExpiry = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token: expired.token, ref: 'main' } });
    const unknown = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token: 'glptt-0000000000000000000000000000000000000000', ref: 'main' } });
    const otherProjects = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token: otherToken, ref: 'main' } });
    const numbers = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token, ref: 'main', variables: { COUNT: 1 } } });
    const noRef = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { token, ref: 'nope' } });
    const noToken = await api(`/projects/${project.id}/trigger/pipeline`, { method: 'POST', body: { ref: 'main' } });

    // Assert
    expect(before.status).toBe(201);
    expect(deleted.status).toBe(204);
    expect(after).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(expired.expires_at).toBe('2020-01-01T00:00:00.000Z');
    expect(afterExpiry).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(otherProjects).toMatchObject({ status: 404 });
    expect(numbers).toMatchObject({ status: 400, body: { message: 'variables needs to be a map of key-valued strings' } });
    expect(noRef).toMatchObject({ status: 400, body: { message: { base: ['Reference not found'] } } });
    expect(noToken).toMatchObject({ status: 400, body: { error: 'token is missing' } });
  });

  it('answers the default branch’s latest pipeline at GET …/pipelines/latest, beside …/pipelines/:pipeline_id', async () => {
    // Act
    const newest = (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token, query: { ref: 'main' } })).body[0];
    const latest = await api(`/projects/${project.id}/pipelines/latest`, { token: project.owner.token });
    const onMain = await api(`/projects/${project.id}/pipelines/latest`, { token: project.owner.token, query: { ref: 'main' } });
    const unknownRef = await api(`/projects/${project.id}/pipelines/latest`, { token: project.owner.token, query: { ref: 'nope' } });
    const byId = await api(`/projects/${project.id}/pipelines/${newest.id}`, { token: project.owner.token });

    // Assert
    expect(latest).toMatchObject({ status: 200, body: { id: newest.id, ref: 'main', detailed_status: { group: expect.any(String) } } });
    expect(latest.body).toEqual(byId.body);
    expect(onMain.body.id).toBe(newest.id);
    expect(unknownRef).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });
});

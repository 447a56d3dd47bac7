/**
 * CI/CD inputs over HTTP: a pushed `.gitlab-ci.yml` with a `spec:inputs` header (defaults on push),
 * values given to `POST /projects/:id/pipeline` (JSON) and `POST /projects/:id/trigger/pipeline`
 * (form fields, read as JSON for a number input), passed on to a local include's own header, and a
 * value refused with GitLab's message as the pipeline's yaml error, as is a masked variable in
 * `expand_vars`; a trigger's inputs in its
 * `TRIGGER_PAYLOAD`; a pipeline schedule's stored inputs (`[{ name, value }]`, `_destroy` on
 * update, a value over GitLab's 1,024 characters refused) given to its pipelines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';

const CI = `
spec:
  inputs:
    target:
      default: staging
      options: [staging, production]
    replicas:
      type: number
      default: 1
    note:
      default: ''
---
include:
  - local: templates/check.yml
    inputs:
      name: check-$[[ inputs.target ]]
deploy-$[[ inputs.target ]]-x$[[ inputs.replicas ]]:
  script: echo deploying $[[ inputs.note | expand_vars ]]
`;

const CHECK = `
spec:
  inputs:
    name:
---
$[[ inputs.name ]]:
  script: echo checking
`;

describe('CI/CD inputs', () => {
  let project: OwnedProject;

  const jobNames = async (pipelineId: number) =>
    ((await api(`/projects/${project.id}/pipelines/${pipelineId}/jobs`, { token: project.owner.token })).body as Array<{ name: string }>).map((job) => job.name).sort();

  beforeAll(async () => {
    project = await ownedProject('private');
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI, 'templates/check.yml': CHECK });
  });

  it('interpolates defaults on push, the inputs of the API and of a trigger, and refuses a value not in options', async () => {
    // Arrange
    const trigger = await api(`/projects/${project.id}/triggers`, { method: 'POST', token: project.owner.token, body: { description: 'inputs' } });

    // Act
    const pushed = (await api(`/projects/${project.id}/pipelines`, { token: project.owner.token })).body as Array<{ id: number }>;
    const viaApi = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main', inputs: { target: 'production', replicas: 3 } } });
    const viaTrigger = await api(`/projects/${project.id}/trigger/pipeline`, {
      method: 'POST',
      form: new URLSearchParams({ token: trigger.body.token, ref: 'main', 'inputs[replicas]': '2' }),
    });
    const refused = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main', inputs: { target: 'qa', other: 'x' } } });
    await api(`/projects/${project.id}/variables`, { method: 'POST', token: project.owner.token, body: { key: 'SECRET', value: 'hunter2-hunter2', masked: true } });
    const masked = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main', inputs: { note: 'key ${SECRET}' } } });
    const notAHash = await api(`/projects/${project.id}/pipeline`, { method: 'POST', token: project.owner.token, body: { ref: 'main', inputs: 'target' } });

    // Assert
    expect(pushed).toHaveLength(1);
    expect(await jobNames(pushed[0].id)).toEqual(['check-staging', 'deploy-staging-x1']);
    expect(viaApi.status).toBe(201);
    expect(await jobNames(viaApi.body.id)).toEqual(['check-production', 'deploy-production-x3']);
    expect(viaTrigger.status).toBe(201);
    expect(await jobNames(viaTrigger.body.id)).toEqual(['check-staging', 'deploy-staging-x2']);
    const triggerVariables = (await api(`/projects/${project.id}/pipelines/${viaTrigger.body.id}/variables`, { token: project.owner.token })).body as Array<{ key: string; value: string }>;
    expect(JSON.parse(triggerVariables.find((variable) => variable.key === 'TRIGGER_PAYLOAD')!.value)).toMatchObject({ ref: 'main', inputs: { replicas: '2' } });
    expect(refused).toMatchObject({ status: 201, body: { status: 'failed' } });
    const failed = await api(`/projects/${project.id}/pipelines/${refused.body.id}`, { token: project.owner.token });
    expect(failed.body.yaml_errors).toBe('unknown input arguments: other, `target` input: `qa` cannot be used because it is not in the list of allowed options');
    expect(await jobNames(refused.body.id)).toEqual([]);
    const maskedPipeline = await api(`/projects/${project.id}/pipelines/${masked.body.id}`, { token: project.owner.token });
    expect(maskedPipeline.body).toMatchObject({ status: 'failed', yaml_errors: 'error in `expand_vars` function: variable expansion error: masked variables cannot be expanded' });
    expect(notAHash.status).toBe(400);
  });

  it('stores a schedule\'s inputs (set, changed and removed by name), shows them to its owner and runs its pipeline with them', async () => {
    // Arrange
    const schedules = `/projects/${project.id}/pipeline_schedules`;
    const created = await api(schedules, {
      method: 'POST',
      token: project.owner.token,
      body: { description: 'nightly', ref: 'main', cron: '0 1 * * *', active: false, inputs: [{ name: 'target', value: 'production' }, { name: 'replicas', value: 5 }] },
    });
    const path = `${schedules}/${created.body.id}`;

    // Act
    const edited = await api(path, { method: 'PUT', token: project.owner.token, body: { inputs: [{ name: 'replicas', _destroy: true }, { name: 'target', value: 'staging' }] } });
    const tooLong = await api(path, { method: 'PUT', token: project.owner.token, body: { inputs: [{ name: 'target', value: 'x'.repeat(1023) }] } });
    const details = await api(path, { token: project.owner.token });
    const played = await api(`${path}/play`, { method: 'POST', token: project.owner.token });
    const pipelines = await api(`${path}/pipelines`, { token: project.owner.token });

    // Assert
    expect(created.status).toBe(201);
    expect(edited.status).toBe(200);
    expect(tooLong).toMatchObject({ status: 400, body: { message: { 'inputs.value': ['exceeds max serialized size: 1024 characters'] } } });
    expect(details.body.inputs).toEqual([{ name: 'target', value: 'staging' }]);
    expect(played.status).toBe(201);
    expect(pipelines.body).toHaveLength(1);
    expect(await jobNames(pipelines.body[0].id)).toEqual(['check-staging', 'deploy-staging-x1']);
  });
});

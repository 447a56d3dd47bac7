/**
 * Pipeline schedules (`/projects/:id/pipeline_schedules`, GitLab's `lib/api/ci/pipeline_schedules.rb`)
 * as python-gitlab calls them: create, read, list, edit and delete with GitLab's entities and
 * validation errors, who may do what (the schedule's owner, maintainers, protected refs),
 * variables (sealed at rest), take_ownership, play creating a `schedule` pipeline whose job sees
 * `CI_PIPELINE_SOURCE=schedule` and the variables, and the scheduler's run of a due schedule
 * (called in the test process at a clock past its next run, as the sweep tests do): two runs at
 * once create one pipeline, a blocked owner's schedule is deactivated, a gone ref is skipped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runDueSchedule } from '../../shared/ci/commands/schedules';
import { CI_SCHEDULE_SHARDS, ciCollections } from '../../shared/ci/store/keys';
import { dueSchedules, type DueSchedule } from '../../shared/ci/store/schedules';
import { logger } from '../../shared/platform/logger';
import { queryAll } from '../../shared/platform/dynamo/query';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { createUser, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { cloneUrl, gitOk, pushNewRepository } from '../support/git';
import { TestRunner } from './runner';

const MAINTAINER = 40;
const DEVELOPER = 30;
const REPORTER = 20;

// Only a schedule's pipelines have a job: pushes create none.
const CI = `
scheduled:
  script: [echo "deploying to $TARGET"]
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
`;

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are read field by field */

const ENTITY = ['id', 'description', 'ref', 'cron', 'cron_timezone', 'next_run_at', 'active', 'created_at', 'updated_at', 'owner', 'inputs'];

describe('pipeline schedules', () => {
  let project: OwnedProject;
  let maintainer: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let schedules: string;

  // Due only on New Year's Day by default: the runtime's own scheduler, on the real clock, never runs these meanwhile.
  const create = (token: string, body: Record<string, unknown>) => api(schedules, { method: 'POST', token, body: { description: 'yearly', cron: '0 0 1 1 *', ...body } });

  beforeAll(async () => {
    project = await ownedProject('private');
    schedules = `/projects/${project.id}/pipeline_schedules`;
    const work = await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': CI, 'README.md': '# schedules\n' });
    // `dev` a branch, `both` a branch and a tag (ambiguous), `v1` a tag.
    await gitOk(['push', '-q', cloneUrl(project.fullPath, project.owner.token), 'main:refs/heads/dev', 'main:refs/heads/both', 'main:refs/tags/both', 'main:refs/tags/v1'], { cwd: work });
    // `main`, the default branch, is protected as GitLab protects it: developers neither push nor merge.
    const protection = await api(`/projects/${project.id}/protected_branches/main`, { token: project.owner.token });
    expect(protection.body).toMatchObject({ push_access_levels: [{ access_level: MAINTAINER }] });
    [maintainer, developer, reporter] = await Promise.all([newMember(project, MAINTAINER), newMember(project, DEVELOPER), newMember(project, REPORTER)]);
  });

  it('creates, lists, reads, edits and deletes a schedule with GitLab’s entities, next runs and validation errors', async () => {
    // Act
    const before = Date.now();
    const created = await create(project.owner.token, { description: 'weekly', ref: 'main', cron: '0 1 * * 5', cron_timezone: 'Asia/Tokyo', active: false });
    const id = created.body.id;
    const onTag = await create(project.owner.token, { ref: 'v1', active: false });
    const list = await api(schedules, { token: reporter.token });
    const inactive = await api(schedules, { token: project.owner.token, query: { scope: 'inactive' } });
    const read = await api(`${schedules}/${id}`, { token: project.owner.token });
    const edited = await api(`${schedules}/${id}`, { method: 'PUT', token: project.owner.token, body: { cron: '30 2 1 1 *', cron_timezone: 'UTC', active: true } });
    const invalid = await create(project.owner.token, { ref: 'main', cron: '61 * * * *', cron_timezone: 'Mars/Phobos' });
    // Rails' time zone names, as GitLab's `ActiveSupport::TimeZone` takes them: kept as given, the cron read in their zone.
    const rails = await create(project.owner.token, { ref: 'main', cron: '0 1 * * *', cron_timezone: 'Pacific Time (US & Canada)', active: false });
    const berlin = await api(`${schedules}/${rails.body.id}`, { method: 'PUT', token: project.owner.token, body: { cron: '30 2 1 1 *', cron_timezone: 'Berlin' } });
    const ambiguous = await create(project.owner.token, { ref: 'both' });
    const unknownRef = await create(project.owner.token, { ref: 'nope' });
    const fullRef = await create(project.owner.token, { ref: 'refs/tags/both', active: false });
    const noCron = await api(schedules, { method: 'POST', token: project.owner.token, body: { description: 'x', ref: 'main' } });
    const badEdit = await api(`${schedules}/${id}`, { method: 'PUT', token: project.owner.token, body: { cron: 'every day' } });
    const missing = await api(`${schedules}/999999999`, { token: project.owner.token });
    const deleted = await api(`${schedules}/${fullRef.body.id}`, { method: 'DELETE', token: project.owner.token });
    const afterDelete = await api(`${schedules}/${fullRef.body.id}`, { token: project.owner.token });

    // Assert
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual([...ENTITY, 'last_pipeline']);
    expect(created.body).toMatchObject({ description: 'weekly', ref: 'refs/heads/main', cron: '0 1 * * 5', cron_timezone: 'Asia/Tokyo', active: false, last_pipeline: null, inputs: [], owner: { id: project.owner.id, username: project.owner.username } });
    // Friday 01:00 in Tokyo is Thursday 16:00 UTC, within the coming week.
    const next = new Date(created.body.next_run_at);
    expect(created.body.next_run_at).toMatch(/T16:00:00\.000Z$/);
    expect([next.getUTCDay(), next.getTime() > before, next.getTime() - before <= 7 * 86_400_000]).toEqual([4, true, true]);
    expect(onTag).toMatchObject({ status: 201, body: { ref: 'refs/tags/v1', active: false } });
    expect(list.status).toBe(200);
    expect(list.body.map((schedule: any) => schedule.id)).toEqual([onTag.body.id, id]);
    expect(Object.keys(list.body[1])).toEqual(ENTITY);
    expect(inactive.body.map((schedule: any) => schedule.id)).toEqual([onTag.body.id, id]);
    expect(read).toMatchObject({ status: 200, body: { id, variables: [], last_pipeline: null } });
    expect(edited).toMatchObject({ status: 200, body: { cron: '30 2 1 1 *', cron_timezone: 'UTC', active: true, ref: 'refs/heads/main' } });
    expect(edited.body.next_run_at).toMatch(/-01-01T02:30:00\.000Z$/);
    expect(invalid).toMatchObject({ status: 400, body: { message: { cron: [' is invalid syntax'], cron_timezone: ['syntax is invalid'] } } });
    // 01:00 in Los Angeles is 09:00 UTC (08:00 in summer); New Year's 02:30 in Berlin is 01:30 UTC.
    expect(rails).toMatchObject({ status: 201, body: { cron_timezone: 'Pacific Time (US & Canada)', next_run_at: expect.stringMatching(/T0[89]:00:00\.000Z$/) } });
    expect(berlin).toMatchObject({ status: 200, body: { cron_timezone: 'Berlin', next_run_at: expect.stringMatching(/-01-01T01:30:00\.000Z$/) } });
    expect(ambiguous).toMatchObject({ status: 400, body: { message: { ref: ['is ambiguous'] } } });
    expect(unknownRef).toMatchObject({ status: 400, body: { message: { ref: ['is ambiguous'] } } });
    expect(fullRef).toMatchObject({ status: 201, body: { ref: 'refs/tags/both' } });
    expect(noCron).toMatchObject({ status: 400, body: { error: 'cron is missing' } });
    expect(badEdit).toMatchObject({ status: 400, body: { message: { cron: [' is invalid syntax'] } } });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Not Found' } });
    expect(deleted.status).toBe(204);
    expect(afterDelete.status).toBe(404);
  });

  it('lets developers create on refs open to them, the owner edit, maintainers administer and take ownership', async () => {
    // Arrange
    const stranger = await createUser();
    const other = await newMember(project, DEVELOPER);

    // Act
    const byReporter = await create(reporter.token, { ref: 'dev' });
    const onProtected = await create(developer.token, { ref: 'main' });
    const mine = await create(developer.token, { ref: 'dev' });
    const path = `${schedules}/${mine.body.id}`;
    const movedToProtected = await api(path, { method: 'PUT', token: developer.token, body: { ref: 'main' } });
    const ownerEdit = await api(path, { method: 'PUT', token: developer.token, body: { description: 'mine' } });
    const maintainerEdit = await api(path, { method: 'PUT', token: maintainer.token, body: { description: 'theirs' } });
    const ownerVariable = await api(`${path}/variables`, { method: 'POST', token: developer.token, body: { key: 'TARGET', value: 'dev-secret' } });
    const maintainerVariable = await api(`${path}/variables`, { method: 'POST', token: maintainer.token, body: { key: 'OTHER', value: 'x' } });
    const [asReporter, asMaintainer, asOwner] = await Promise.all([reporter, maintainer, developer].map((user) => api(path, { token: user.token })));
    const otherDelete = await api(path, { method: 'DELETE', token: other.token });
    const otherTakes = await api(`${path}/take_ownership`, { method: 'POST', token: other.token });
    const strangerList = await api(schedules, { token: stranger.token });
    const anonymous = await api(schedules);
    const taken = await api(`${path}/take_ownership`, { method: 'POST', token: maintainer.token });
    const takenAgain = await api(`${path}/take_ownership`, { method: 'POST', token: maintainer.token });
    const formerOwnerEdit = await api(path, { method: 'PUT', token: developer.token, body: { description: 'mine again' } });

    // Assert
    expect(byReporter).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(onProtected).toMatchObject({ status: 400, body: { message: { base: ['The current user is not authorized to create the pipeline schedule'] } } });
    expect(mine).toMatchObject({ status: 201, body: { ref: 'refs/heads/dev', owner: { id: developer.id } } });
    expect(movedToProtected).toMatchObject({ status: 400, body: { message: { base: ['The current user is not authorized to update the pipeline schedule'] } } });
    expect(ownerEdit).toMatchObject({ status: 200, body: { description: 'mine', ref: 'refs/heads/dev' } });
    expect(Object.keys(ownerEdit.body)).not.toContain('variables');
    expect(maintainerEdit.status).toBe(403);
    expect(ownerVariable).toMatchObject({ status: 201, body: { variable_type: 'env_var', key: 'TARGET', value: 'dev-secret', raw: false } });
    expect(maintainerVariable.status).toBe(403);
    expect(asReporter.status).toBe(200);
    expect(Object.keys(asReporter.body)).not.toContain('variables');
    expect(asMaintainer.body.variables).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'dev-secret', raw: false }]);
    expect(asOwner.body.variables).toHaveLength(1);
    expect(otherDelete.status).toBe(403);
    expect(otherTakes.status).toBe(403);
    expect(strangerList).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(anonymous.status).toBe(401);
    expect(taken).toMatchObject({ status: 201, body: { owner: { id: maintainer.id } } });
    expect(takenAgain).toMatchObject({ status: 200, body: { owner: { id: maintainer.id } } });
    expect(formerOwnerEdit.status).toBe(403);
  });

  it('keeps variables per schedule with GitLab’s errors, their values only sealed at rest', async () => {
    // Arrange
    const schedule = (await create(project.owner.token, { ref: 'dev', active: false })).body;
    const variables = `${schedules}/${schedule.id}/variables`;

    // Act
    const added = await api(variables, { method: 'POST', token: project.owner.token, form: new URLSearchParams({ key: 'API_KEY', value: 'sup3r-s3cret-value', variable_type: 'file' }) });
    const taken = await api(variables, { method: 'POST', token: project.owner.token, body: { key: 'API_KEY', value: 'again' } });
    const badKey = await api(variables, { method: 'POST', token: project.owner.token, body: { key: 'API-KEY', value: 'x' } });
    const noValue = await api(variables, { method: 'POST', token: project.owner.token, body: { key: 'EMPTY' } });
    const empty = await api(variables, { method: 'POST', token: project.owner.token, body: { key: 'EMPTY', value: '' } });
    const changed = await api(`${variables}/API_KEY`, { method: 'PUT', token: project.owner.token, body: { value: 'rotated-s3cret' } });
    const readOne = await api(`${variables}/API_KEY`, { token: project.owner.token });
    const items = isLocalRuntime() ? await queryAll(ciCollections.schedules(project.id)) : [];
    const removed = await api(`${variables}/EMPTY`, { method: 'DELETE', token: project.owner.token });
    const gone = await api(`${variables}/EMPTY`, { method: 'PUT', token: project.owner.token, body: { value: 'x' } });
    const details = await api(`${schedules}/${schedule.id}`, { token: project.owner.token });

    // Assert
    expect(added).toMatchObject({ status: 201, body: { variable_type: 'file', key: 'API_KEY', value: 'sup3r-s3cret-value' } });
    expect(taken).toMatchObject({ status: 400, body: { message: { key: ['has already been taken'] } } });
    expect(badKey).toMatchObject({ status: 400, body: { message: { key: ["can contain only letters, digits and '_'."] } } });
    expect(noValue).toMatchObject({ status: 400, body: { error: 'value is missing' } });
    expect(empty.status).toBe(201);
    expect(changed).toMatchObject({ status: 200, body: { key: 'API_KEY', value: 'rotated-s3cret', variable_type: 'file' } });
    expect(readOne.body).toEqual({ variable_type: 'file', key: 'API_KEY', value: 'rotated-s3cret', raw: false });
    if (isLocalRuntime()) {
      const item = items.find((candidate) => candidate.id === schedule.id)!;
      expect(item.variables[0].valueSealed).toMatch(/^v1:/);
      expect(JSON.stringify(items)).not.toContain('s3cret');
    }
    expect(removed).toMatchObject({ status: 202, body: { key: 'EMPTY', value: '' } });
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Pipeline Schedule Variable Not Found' } });
    expect(details.body.variables.map((variable: any) => variable.key)).toEqual(['API_KEY']);
  });

  it('plays a schedule at once: a `schedule` pipeline on its ref, its job seeing the source and the variables', async () => {
    // Arrange
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    const schedule = (await create(project.owner.token, { ref: 'main', active: false })).body;
    const path = `${schedules}/${schedule.id}`;
    await api(`${path}/variables`, { method: 'POST', token: project.owner.token, body: { key: 'TARGET', value: 'production' } });

    // Act
    const byReporter = await api(`${path}/play`, { method: 'POST', token: reporter.token });
    const byDeveloper = await api(`${path}/play`, { method: 'POST', token: developer.token });
    const played = await api(`${path}/play`, { method: 'POST', token: project.owner.token });
    const job = await runner.pickNext();
    const pipelines = await api(`${path}/pipelines`, { token: reporter.token });
    const details = await api(path, { token: project.owner.token });
    const pipeline = await api(`/projects/${project.id}/pipelines/${pipelines.body[0]?.id}`, { token: project.owner.token });

    // Assert
    expect(byReporter.status).toBe(403);
    expect(byDeveloper.status).toBe(403); // `main` is protected from developers
    expect(played).toMatchObject({ status: 201, body: { message: '201 Created' } });
    expect(pipelines.status).toBe(200);
    expect(pipelines.body).toHaveLength(1);
    expect(pipelines.body[0]).toMatchObject({ project_id: project.id, ref: 'main', source: 'schedule', status: expect.stringMatching(/^(pending|running)$/) });
    expect(pipeline.body).toMatchObject({ source: 'schedule', tag: false, user: { id: project.owner.id } });
    expect(details.body.last_pipeline).toMatchObject({ id: pipelines.body[0].id, ref: 'main', source: 'schedule' });
    // GitLab's filters of the schedule's pipelines (`Ci::PipelinesFinder`): bounds are exclusive.
    const [{ id: pipelineId, created_at: createdAt }] = pipelines.body;
    const filtered = async (query: Record<string, string>) => (await api(`${path}/pipelines`, { token: reporter.token, query })).body.map((p: any) => p.id);
    const before = new Date(Date.parse(createdAt) - 60_000).toISOString();
    expect(await filtered({ scope: 'branches', status: pipelines.body[0].status, created_after: before, updated_after: before, sort: 'desc' })).toEqual([pipelineId]);
    for (const query of [{ scope: 'tags' }, { scope: 'finished' }, { status: 'success' }, { created_before: createdAt }, { created_after: createdAt }, { updated_before: before }] as Array<Record<string, string>>) expect(await filtered(query)).toEqual([]);
    expect((await api(`${path}/pipelines`, { token: reporter.token, query: { created_before: 'soon' } })).body).toEqual({ error: 'created_before is invalid' });
    const value = (key: string) => job.variables.filter((variable: any) => variable.key === key).at(-1)?.value;
    expect([job.job_info.name, value('CI_PIPELINE_SOURCE'), value('TARGET'), value('CI_PIPELINE_ID')]).toEqual(['scheduled', 'schedule', 'production', String(pipelines.body[0].id)]);
  });

  describe.skipIf(!isLocalRuntime())('the scheduler', () => {
    /** The schedule's entry in the due index at `now`. */
    const dueEntry = async (id: number, now: Date): Promise<DueSchedule | undefined> =>
      (await dueSchedules(id % CI_SCHEDULE_SHARDS, now.toISOString(), 10_000)).find((found) => found.schedule.id === id);
    const context = (now: Date) => ({ now, logger: logger.child({ component: 'test' }) });
    // The schedules are due on New Year's Day (`create`): run at a clock just past their next run.

    it('runs a due schedule once when two runs race, as its owner, with its variables; and moves its next run on', async () => {
      // Arrange
      const schedule = (await create(project.owner.token, { ref: 'main' })).body;
      await api(`${schedules}/${schedule.id}/variables`, { method: 'POST', token: project.owner.token, body: { key: 'TARGET', value: 'yearly' } });
      const now = new Date(Date.parse(schedule.next_run_at) + 30_000);
      const found = (await dueEntry(schedule.id, now))!;

      // Act
      const outcomes = await Promise.all([runDueSchedule(found, context(now)), runDueSchedule(found, context(now))]);
      const pipelines = (await api(`${schedules}/${schedule.id}/pipelines`, { token: project.owner.token })).body;
      const after = (await api(`${schedules}/${schedule.id}`, { token: project.owner.token })).body;
      const variables = (await api(`/projects/${project.id}/pipelines/${pipelines[0].id}/variables`, { token: project.owner.token })).body;

      // Assert
      expect(found).toBeDefined();
      expect(outcomes.sort()).toEqual(['lost_race', 'ran']);
      expect(pipelines).toHaveLength(1);
      expect(pipelines[0]).toMatchObject({ source: 'schedule', ref: 'main' });
      expect(variables).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'yearly', raw: false }]);
      expect(Date.parse(after.next_run_at)).toBe(Date.UTC(new Date(schedule.next_run_at).getUTCFullYear() + 1, 0, 1));
      expect(after.last_pipeline).toMatchObject({ id: pipelines[0].id });
      expect(await dueEntry(schedule.id, now)).toBeUndefined();
    });

    it('deactivates a blocked owner’s schedule and skips one whose ref is gone, never failing the run', async () => {
      // Arrange
      const owner = await newMember(project, MAINTAINER);
      const blocked = (await create(owner.token, { ref: 'dev' })).body;
      const refGone = (await create(project.owner.token, { ref: 'refs/heads/gone' })).body;
      expect((await api(`/users/${owner.id}/block`, { method: 'POST', token: rootToken() })).status).toBe(201);
      const now = new Date(Date.parse(blocked.next_run_at) + 30_000);

      // Act
      const outcomes = [await runDueSchedule((await dueEntry(blocked.id, now))!, context(now)), await runDueSchedule((await dueEntry(refGone.id, now))!, context(now))];
      const [afterBlocked, afterGone] = await Promise.all([blocked, refGone].map(async (schedule) => (await api(`${schedules}/${schedule.id}`, { token: project.owner.token })).body));

      // Assert
      expect(outcomes).toEqual(['deactivated', 'not_created']);
      expect(afterBlocked).toMatchObject({ active: false });
      expect(afterGone).toMatchObject({ active: true, last_pipeline: null });
      expect(Date.parse(afterGone.next_run_at)).toBeGreaterThan(now.getTime());
    });

    it('deletes the schedules and their entries with the project', async () => {
      const ids = (await api(schedules, { token: project.owner.token })).body.map((schedule: any) => schedule.id);
      expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(202);
      await eventually(async () => expect(await queryAll(ciCollections.schedules(project.id))).toEqual([]));
      expect(await Promise.all(ids.map((id: number) => queryAll(ciCollections.schedulePipelines(id))))).toEqual(ids.map(() => []));
    });
  });
});

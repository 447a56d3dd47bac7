/**
 * GitLab-managed Terraform state as Terraform's `http` backend uses it (`address`, `lock_address`,
 * `unlock_address`, `lock_method=POST`, `unlock_method=DELETE`, `username` + `password`): the whole
 * cycle of an apply, a lock held by another ID with its lock info, force-unlock; HTTP Basic with a
 * personal access token and with a running CI job's token; who may do what; a state's versions;
 * GitLab's refusals, which change nothing; concurrent locks and concurrent writes of the lock holder.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../shared/platform/dynamo/query';
import { bucketName, s3 } from '../../shared/platform/s3/client';
import { terraformStateKeys, terraformStateObjects } from '../../shared/terraform-states/store/keys';
import { api, baseUrl, isLocalRuntime } from '../support/api';
import { eventually } from '../support/eventually';
import { addMember, createProject, createUser, unique, type TestUser } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from '../ci/runner';

const REPORTER = 20;
const DEVELOPER = 30;

/** `Authorization: Basic` as Terraform sends its `username` and `password`. */
const basic = (username: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` });

/** Terraform's lock info (`statemgr.LockInfo`), as `terraform apply` sends it. */
const lockInfo = (id: string) => ({ ID: id, Operation: 'OperationTypeApply', Info: '', Who: 'ci@runner', Version: '1.9.8', Created: new Date().toISOString(), Path: '' });

/** A state document of a serial, as Terraform writes it. */
const stateDocument = (serial: number, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ version: 4, terraform_version: '1.9.8', serial, lineage: 'f1e2d3c4', outputs: { n: { value: serial, type: 'number' } }, resources: [], ...extra }, null, 2)}\n`;

/** One request as Terraform's http client makes it: JSON body with `Content-MD5`, raw answer. */
async function terraform(method: string, path: string, auth: Record<string, string>, body?: string, query: Record<string, string> = {}) {
  const url = new URL(`${baseUrl()}/api/v4${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const headers: Record<string, string> = { ...auth };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-MD5'] = createHash('md5').update(body).digest('base64');
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the lock info is read field by field
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

describe('GitLab-managed Terraform state', () => {
  let owner: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: { id: number; fullPath: string };

  const statePath = (name: string, rest = '', id: number | string = project.id) => `/projects/${id}/terraform/state/${name}${rest}`;

  beforeAll(async () => {
    [owner, developer, reporter, stranger] = await Promise.all([createUser(), createUser(), createUser(), createUser()]);
    project = await createProject(owner.token, { visibility: 'private' });
    await Promise.all([addMember('projects', project.id, developer.id, DEVELOPER), addMember('projects', project.id, reporter.id, REPORTER)]);
  });

  it('runs an apply as the http backend does: lock, GET (204), POST with ?ID=, unlock, GET the JSON; another ID then conflicts with the lock info; force-unlock', async () => {
    // Prepare: a name with an encoded slash (GitLab's `test%2Ffoo`), and a path-addressed project
    const name = encodeURIComponent(`${unique('env')}/prod`);
    const auth = basic(owner.username, owner.token);
    const byPath = encodeURIComponent(project.fullPath);
    const document = stateDocument(1);

    // Act: terraform apply
    const locked = await terraform('POST', statePath(name, '/lock', byPath), auth, JSON.stringify(lockInfo('lock-a')));
    const empty = await terraform('GET', statePath(name), auth);
    const withoutId = await terraform('POST', statePath(name), auth, document);
    const wrongId = await terraform('POST', statePath(name), auth, document, { ID: 'lock-z' });
    const stored = await terraform('POST', statePath(name), auth, document, { ID: 'lock-a' });
    const unlocked = await terraform('DELETE', statePath(name, '/lock'), auth, JSON.stringify(lockInfo('lock-a')));
    const read = await terraform('GET', statePath(name), auth);

    // Assess
    expect(locked.status, locked.text).toBe(200);
    expect(locked.json).toEqual({ Operation: 'OperationTypeApply', Info: '', Version: '1.9.8', Path: '', ID: 'lock-a', Who: owner.username, Created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(empty).toMatchObject({ status: 204, text: '' });
    expect([withoutId.status, wrongId.status]).toEqual([409, 409]);
    expect(stored).toMatchObject({ status: 200, text: '' });
    expect(unlocked.status).toBe(200);
    expect(read).toMatchObject({ status: 200, text: document });

    // Act: a second run locks; another one (another ID) is refused with the holder's lock info
    const first = await terraform('POST', statePath(name, '/lock'), auth, JSON.stringify(lockInfo('lock-b')));
    const second = await terraform('POST', statePath(name, '/lock'), basic(owner.username, owner.token), JSON.stringify({ ...lockInfo('lock-c'), Operation: 'OperationTypePlan' }));
    const again = await terraform('POST', statePath(name, '/lock'), auth, JSON.stringify(lockInfo('lock-b')));
    const otherUnlock = await terraform('DELETE', statePath(name, '/lock'), auth, JSON.stringify(lockInfo('lock-c')));
    const forced = await terraform('DELETE', statePath(name, '/lock'), auth);
    const relocked = await terraform('POST', statePath(name, '/lock'), auth, JSON.stringify(lockInfo('lock-c')));
    const released = await terraform('DELETE', statePath(name, '/lock'), auth, undefined, { ID: 'lock-c' });

    // Assess
    expect(first.status).toBe(200);
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ ID: 'lock-b', Who: owner.username, Operation: 'OperationTypePlan', Created: first.json.Created });
    expect(again.status).toBe(409);
    expect(otherUnlock.status).toBe(409);
    expect([forced.status, relocked.status, released.status]).toEqual([200, 200, 200]);
  });

  it('takes HTTP Basic with a running job’s token (`gitlab-ci-token`) and the JOB-TOKEN header; a token of no running job is a 401', async () => {
    // Prepare: a job of the project running, started by its owner (a maintainer)
    await pushNewRepository(project.fullPath, owner.token, { '.gitlab-ci.yml': 'plan:\n  script: [terraform plan]\n' });
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: owner.token })).body.runners_token);
    const job = await runner.pickNext();
    const name = unique('ci');
    const asJob = basic('gitlab-ci-token', job.token);

    // Act
    const locked = await terraform('POST', statePath(name, '/lock'), asJob, JSON.stringify(lockInfo('job-lock')));
    const stored = await terraform('POST', statePath(name), asJob, stateDocument(3), { ID: 'job-lock' });
    const unlocked = await terraform('DELETE', statePath(name, '/lock'), asJob, JSON.stringify(lockInfo('job-lock')));
    const byHeader = await terraform('GET', statePath(name), { 'JOB-TOKEN': job.token });
    const unknown = await terraform('GET', statePath(name), basic('gitlab-ci-token', `${job.token}x`));
    await runner.update(job, 'success');
    const finished = await terraform('GET', statePath(name), asJob);

    // Assess
    expect([locked.status, stored.status, unlocked.status]).toEqual([200, 200, 200]);
    expect(locked.json.Who).toBe(owner.username);
    expect(byHeader).toMatchObject({ status: 200, text: stateDocument(3) });
    expect([unknown.status, finished.status]).toEqual([401, 401]);
  });

  it('lets developers read, maintainers write; reporters get 403, non-members of a private project 404, no credentials 401 (Basic only where declared)', async () => {
    // Prepare
    const name = unique('perm');
    const ownerAuth = basic(owner.username, owner.token);
    expect((await terraform('POST', statePath(name), ownerAuth, stateDocument(1))).status).toBe(200);

    // Act
    const [devRead, devWrite, devLock, devDelete, reporterRead, strangerRead, anonymous, badToken, privateToken, basicElsewhere] = await Promise.all([
      terraform('GET', statePath(name), basic(developer.username, developer.token)),
      terraform('POST', statePath(name), basic(developer.username, developer.token), stateDocument(2)),
      terraform('POST', statePath(name, '/lock'), basic(developer.username, developer.token), JSON.stringify(lockInfo('dev'))),
      terraform('DELETE', statePath(name), basic(developer.username, developer.token)),
      terraform('GET', statePath(name), basic(reporter.username, reporter.token)),
      terraform('GET', statePath(name), basic(stranger.username, stranger.token)),
      terraform('GET', statePath(name), {}),
      terraform('GET', statePath(name), basic(owner.username, 'glpat-wrong')),
      terraform('GET', statePath(name), { 'PRIVATE-TOKEN': developer.token }),
      // Only the routes that declare HTTP Basic read it.
      terraform('GET', '/user', basic(owner.username, owner.token)),
    ]);

    // Assess
    expect(devRead).toMatchObject({ status: 200, text: stateDocument(1) });
    expect([devWrite.status, devLock.status, devDelete.status, reporterRead.status]).toEqual([403, 403, 403, 403]);
    expect(strangerRead).toMatchObject({ status: 404, json: { message: '404 Project Not Found' } });
    expect([anonymous.status, badToken.status, basicElsewhere.status]).toEqual([401, 401, 401]);
    expect(privateToken.status).toBe(200);
    expect((await terraform('GET', statePath(name), ownerAuth)).text).toBe(stateDocument(1));
  });

  it('keeps each serial as a version: read and delete one (the latest is the highest serial left), delete the state; refusals change nothing', async () => {
    // Prepare
    const name = unique('versions');
    const auth = basic(owner.username, owner.token);
    for (const serial of [1, 2]) expect((await terraform('POST', statePath(name), auth, stateDocument(serial))).status).toBe(200);

    // Act: refusals
    const duplicate = await terraform('POST', statePath(name), auth, stateDocument(2, { lineage: 'other' }));
    const notJson = await terraform('POST', statePath(name), auth, '{"serial": ');
    const noSerial = await terraform('POST', statePath(name), auth, '{"version": 4}');
    const emptyBody = await terraform('POST', statePath(name), auth, '');
    const tooLarge = await terraform('POST', statePath(name), auth, stateDocument(9, { pad: 'x'.repeat(4 * 1024 * 1024) }));
    const longName = await terraform('GET', statePath('n'.repeat(256)), auth);
    const longId = await terraform('DELETE', statePath(name, '/lock'), auth, JSON.stringify(lockInfo('0'.repeat(256))));

    // Assess
    expect([duplicate.status, notJson.status, noSerial.status]).toEqual([422, 422, 422]);
    expect([notJson.json, noSerial.json]).toEqual([{ message: 'invalid JSON' }, { message: 'No serial in payload' }]);
    expect([emptyBody.status, tooLarge.status]).toEqual([204, 413]);
    expect(longName).toMatchObject({ status: 400, json: { error: 'name must be less than 255 characters' } });
    expect(longId).toMatchObject({ status: 400, json: { error: 'ID must be less than 255 characters' } });
    expect((await terraform('GET', statePath(name), auth)).text).toBe(stateDocument(2));

    // Act: versions
    const first = await terraform('GET', statePath(name, '/versions/1'), basic(developer.username, developer.token));
    const devDelete = await terraform('DELETE', statePath(name, '/versions/2'), basic(developer.username, developer.token));
    const deleted = await terraform('DELETE', statePath(name, '/versions/2'), auth);
    const gone = await terraform('GET', statePath(name, '/versions/2'), auth);
    const latest = await terraform('GET', statePath(name), auth);
    const removed = await terraform('DELETE', statePath(name), auth);
    const afterRemoval = await terraform('GET', statePath(name), auth);
    const unknownState = await terraform('DELETE', statePath(unique('none')), auth);

    // Assess
    expect(first).toMatchObject({ status: 200, text: stateDocument(1) });
    expect([devDelete.status, deleted.status]).toEqual([403, 204]);
    expect(gone).toMatchObject({ status: 404, json: { message: '404 Not Found' } });
    expect(latest.text).toBe(stateDocument(1));
    expect(removed).toMatchObject({ status: 200, text: '' });
    expect(afterRemoval).toMatchObject({ status: 404, json: { message: '404 Not found' } });
    expect(unknownState.status).toBe(404);
    // Created again under the same name: a new state, without the old one's versions.
    expect((await terraform('POST', statePath(name), auth, stateDocument(5))).status).toBe(200);
    expect((await terraform('GET', statePath(name, '/versions/1'), auth)).status).toBe(404);
  });

  it('gives a lock to exactly one of concurrent attempts, and keeps every version the holder writes at once', async () => {
    // Prepare
    const name = unique('race');
    const auth = basic(owner.username, owner.token);
    const ids = Array.from({ length: 6 }, (_, i) => `race-${i}`);

    // Act
    const attempts = await Promise.all(ids.map((id) => terraform('POST', statePath(name, '/lock'), auth, JSON.stringify(lockInfo(id)))));
    const winner = attempts.find((attempt) => attempt.status === 200)?.json.ID as string;
    const writes = await Promise.all([1, 2, 3, 4, 5].map((serial) => terraform('POST', statePath(name), auth, stateDocument(serial), { ID: winner })));
    const versions = await Promise.all([1, 2, 3, 4, 5].map((serial) => terraform('GET', statePath(name, `/versions/${serial}`), auth)));
    const latest = await terraform('GET', statePath(name), auth);

    // Assess
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const refused of attempts.filter((attempt) => attempt.status === 409)) expect(refused.json.ID).toBe(winner);
    expect(writes.map((write) => write.status)).toEqual([200, 200, 200, 200, 200]);
    expect(versions.map((version) => version.text)).toEqual([1, 2, 3, 4, 5].map((serial) => stateDocument(serial)));
    expect(latest.text).toBe(stateDocument(5));
  });

  it.skipIf(!isLocalRuntime())('keeps contents sealed in S3, and removes a deleted project’s states with their contents', async () => {
    // Prepare
    const doomed = await createProject(owner.token);
    const name = unique('doomed');
    expect((await terraform('POST', statePath(name, '', doomed.id), basic(owner.username, owner.token), stateDocument(1, { secret: 'hunter2' }))).status).toBe(200);
    const { client, sdk } = await s3();
    const list = () => client.send(new sdk.ListObjectsV2Command({ Bucket: bucketName(), Prefix: terraformStateObjects.projectPrefix(doomed.id) }));
    const [object] = (await list()).Contents ?? [];
    const stored = await (await client.send(new sdk.GetObjectCommand({ Bucket: bucketName(), Key: object.Key! }))).Body!.transformToString();

    // Act
    expect((await api(`/projects/${doomed.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assess
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain('hunter2');
    await eventually(async () => {
      expect([await getItem(terraformStateKeys.state(doomed.id, name)), (await list()).KeyCount ?? 0]).toEqual([undefined, 0]);
    });
  });
});

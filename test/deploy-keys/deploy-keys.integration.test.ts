/**
 * Deploy keys (GitLab's `lib/api/deploy_keys.rb` and `GET /users/:id/project_deploy_keys`), as
 * python-gitlab (`project.keys`, `gl.deploykeys`) and gitbeaker (`DeployKeys`) call them: a
 * project's keys (add, list, read, edit, enable, remove) with GitLab's validation answers and
 * permissions; one key shared by two projects (also when both add it at once), destroyed with its
 * last project unless it is public; the admins' instance-wide keys; a user's projects' keys; and a
 * deleted project's keys going with it; and `GET /keys?fingerprint=` finding a deploy key.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { indexDeployKeyFingerprints } from '../../shared/deploy-keys';
import { deployKeyKeys } from '../../shared/deploy-keys/store/keys';
import { db, tableName } from '../../shared/platform/dynamo/client';
import { api, isLocalRuntime, rootToken } from '../support/api';
import { eventually } from '../support/eventually';
import { createProject, newMember, ownedProject, type OwnedProject, type TestUser } from '../support/fixtures';
import { generateSshPublicKey } from '../support/ssh-keys';

/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read field by field */
/** A key line's classic fingerprint (`aa:bb:…`), as `ssh-keygen -E md5 -l` prints it. */
const md5Fingerprint = (line: string) => createHash('md5').update(Buffer.from(line.split(' ')[1], 'base64')).digest('hex').replace(/(..)(?!$)/g, '$1:');
const keysOf = (projectId: number) => `/projects/${projectId}/deploy_keys`;
const add = (projectId: number, token: string, body: Record<string, unknown>) => api(keysOf(projectId), { method: 'POST', token, body });
const adminKeyIds = async (query: Record<string, unknown> = {}) =>
  ((await api('/deploy_keys', { token: rootToken(), query: { per_page: 100, ...query } })).body as any[]).map((key) => key.id);

describe('deploy keys API', () => {
  let project: OwnedProject;
  let other: { id: number };
  let owner: TestUser;
  let developer: TestUser;

  beforeAll(async () => {
    project = await ownedProject('private');
    owner = project.owner;
    [other, developer] = await Promise.all([createProject(owner.token), newMember(project, 30)]);
  });

  it('adds a key, answers it again when re-added, lists, reads and edits it; maintainers only', async () => {
    // Act
    const line = generateSshPublicKey('ed25519');
    const created = await add(project.id, owner.token, { title: 'Deploy', key: `${line}\n`, can_push: true, expires_at: '2999-01-01T00:00:00Z' });
    const again = await add(project.id, owner.token, { title: 'Other title', key: line });

    // Assess
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toEqual({
      id,
      title: 'Deploy',
      created_at: expect.any(String),
      expires_at: '2999-01-01T00:00:00.000Z',
      key: line,
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/),
      fingerprint_sha256: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/),
      can_push: true,
    });
    expect(again).toMatchObject({ status: 201, body: created.body });
    const list = await api(keysOf(project.id), { token: owner.token });
    expect(list.body).toEqual([created.body]);
    expect(list.headers.get('x-total')).toBe('1');
    expect((await api(`${keysOf(project.id)}/${id}`, { token: owner.token })).body).toEqual(created.body);

    const edited = await api(`${keysOf(project.id)}/${id}`, { method: 'PUT', token: owner.token, body: { title: 'Renamed', can_push: false } });
    expect(edited).toMatchObject({ status: 200, body: { ...created.body, title: 'Renamed', can_push: false } });
    for (const title of ['', '  ', null]) {
      expect(await api(`${keysOf(project.id)}/${id}`, { method: 'PUT', token: owner.token, body: { title, can_push: true } })).toMatchObject({
        status: 400,
        body: { message: { 'deploy_key.title': ["can't be blank"] } },
      });
    }
    expect((await api(`${keysOf(project.id)}/${id}`, { token: owner.token })).body).toMatchObject({ title: 'Renamed', can_push: false });
    expect(await api(`${keysOf(project.id)}/${id}`, { method: 'PUT', token: owner.token, body: {} })).toMatchObject({
      status: 400,
      body: { error: 'title, can_push are missing, at least one parameter must be provided' },
    });
    expect(await api(`${keysOf(project.id)}/999999999`, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await api(`${keysOf(other.id)}/${id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await api(keysOf(project.id), { token: developer.token })).status).toBe(403);
    expect((await add(project.id, developer.token, { title: 'x', key: generateSshPublicKey() })).status).toBe(403);
  });

  it("answers GitLab's validation errors and shares no fingerprint with a user's SSH key", async () => {
    // Prepare
    const userKey = generateSshPublicKey('ecdsa');
    expect((await api('/user/keys', { method: 'POST', token: developer.token, body: { title: 'mine', key: userKey } })).status).toBe(201);
    const deployed = await add(project.id, owner.token, { title: 'd', key: generateSshPublicKey('ecdsa') });
    expect(deployed.status).toBe(201);

    // Act
    const answers = await Promise.all([
      add(project.id, owner.token, { title: 'bad', key: 'ssh-rsa AAAAnotakey' }),
      add(project.id, owner.token, { key: generateSshPublicKey() }),
      add(project.id, owner.token, { title: 'x'.repeat(256), key: generateSshPublicKey() }),
      add(project.id, owner.token, { title: 'taken', key: userKey }),
      add(project.id, owner.token, { title: 'old', key: generateSshPublicKey(), expires_at: '2020-01-01' }),
      api('/user/keys', { method: 'POST', token: developer.token, body: { title: 'theirs', key: deployed.body.key } }),
    ]);

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [400, { message: { 'deploy_key.key': ['is invalid'], 'deploy_key.fingerprint_sha256': ['cannot be generated'] } }],
      [400, { error: 'title is missing' }],
      [400, { message: { 'deploy_key.title': ['is too long (maximum is 255 characters)'] } }],
      [400, { message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } }],
      [400, { message: { 'deploy_key.key': ['has expired'] } }],
      [400, { message: { fingerprint: ['has already been taken'] } }],
    ]);
  });

  it("finds a deploy key by either fingerprint (admins): its creator and projects; a user's key as before", async () => {
    // Prepare
    const line = generateSshPublicKey('ed25519');
    const created = await add(project.id, owner.token, { title: 'By print', key: line });
    const linked = await add(other.id, owner.token, { title: 'By print', key: line, can_push: true });
    expect([created.status, linked.status]).toEqual([201, 201]);
    const userKey = await api('/user/keys', { method: 'POST', token: developer.token, body: { title: 'mine', key: generateSshPublicKey() } });

    // Act
    const [bySha, byMd5, ofUser, byStranger] = await Promise.all([
      api('/keys', { token: rootToken(), query: { fingerprint: created.body.fingerprint_sha256 } }),
      api('/keys', { token: rootToken(), query: { fingerprint: created.body.fingerprint.toUpperCase() } }),
      api('/keys', { token: rootToken(), query: { fingerprint: md5Fingerprint(userKey.body.key) } }),
      api('/keys', { token: owner.token, query: { fingerprint: created.body.fingerprint_sha256 } }),
    ]);

    // Assess
    const { can_push: _, ...key } = created.body;
    const link = (projectId: number, canPush: boolean) => ({ deploy_key_id: key.id, project_id: projectId, created_at: expect.any(String), updated_at: expect.any(String), can_push: canPush });
    expect(bySha).toMatchObject({ status: 200, body: { ...key, user: { id: owner.id, username: owner.username, email: expect.any(String) } } });
    expect(bySha.body.deploy_keys_projects).toEqual([link(project.id, false), link(other.id, true)].sort((a, b) => a.project_id - b.project_id));
    expect(byMd5.body).toEqual(bySha.body);
    expect(ofUser).toMatchObject({ status: 200, body: { id: userKey.body.id, title: 'mine', user: { id: developer.id } } });
    expect(ofUser.body).not.toHaveProperty('deploy_keys_projects');
    expect(byStranger.status).toBe(403);
  });

  it.runIf(isLocalRuntime())('finds a key written before its MD5 fingerprint was indexed once the migration ran', async () => {
    // Prepare: the key's MD5 entry taken away, as for a key written before it.
    const created = await add(project.id, owner.token, { title: 'Older', key: generateSshPublicKey('ed25519') });
    await db().send(new UpdateCommand({ TableName: tableName(), Key: deployKeyKeys.key(created.body.id), UpdateExpression: 'REMOVE GSI3PK, GSI3SK' }));
    const byMd5 = () => api('/keys', { token: rootToken(), query: { fingerprint: created.body.fingerprint } });
    expect((await byMd5()).status).toBe(404);

    // Act
    const indexed = await indexDeployKeyFingerprints({ checkpoint: async () => true });

    // Assess
    expect(indexed).toBeGreaterThanOrEqual(1);
    expect(await byMd5()).toMatchObject({ status: 200, body: { id: created.body.id, title: 'Older' } });
  });

  it('makes one key with two links when two projects add it at once; the last unlink destroys it', async () => {
    // Act
    const line = generateSshPublicKey('ed25519');
    const [a, b] = await Promise.all([
      add(project.id, owner.token, { title: 'shared', key: line, can_push: true }),
      add(other.id, owner.token, { title: 'shared', key: line }),
    ]);

    // Assess
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).toBe(a.body.id);
    expect([a.body.can_push, b.body.can_push]).toEqual([true, false]);
    const id = a.body.id;
    const listed = (await api('/deploy_keys', { token: rootToken(), query: { per_page: 100 } })).body.find((key: any) => key.id === id);
    expect(listed.projects_with_write_access.map((p: any) => p.id)).toEqual([project.id]);
    expect(listed.projects_with_readonly_access).toEqual([
      { id: other.id, description: null, name: expect.any(String), name_with_namespace: expect.any(String), path: expect.any(String), path_with_namespace: expect.any(String), created_at: expect.any(String) },
    ]);
    const mine = await api(`/users/${owner.username}/project_deploy_keys`, { token: owner.token });
    expect(mine.body.map((key: any) => key.id)).toContain(id);
    expect(mine.body.find((key: any) => key.id === id)).not.toHaveProperty('can_push');

    expect((await api(`${keysOf(project.id)}/${id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect(await adminKeyIds()).toContain(id);
    expect((await api(`${keysOf(other.id)}/${id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect(await api(`${keysOf(other.id)}/${id}`, { method: 'DELETE', token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Deploy key Not Found' } });
    expect(await adminKeyIds()).not.toContain(id);
    expect(await api(`${keysOf(project.id)}/${id}/enable`, { method: 'POST', token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Deploy key Not Found' } });
  });

  it('keeps public keys for admins, enabled read-only by any maintainer and kept after their last project', async () => {
    // Act
    const created = await api('/deploy_keys', { method: 'POST', token: rootToken(), body: { title: 'Instance', key: generateSshPublicKey() } });
    const id = created.body.id;
    const enabled = await api(`${keysOf(project.id)}/${id}/enable`, { method: 'POST', token: owner.token });

    // Assess
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['created_at', 'expires_at', 'fingerprint', 'fingerprint_sha256', 'id', 'key', 'title']);
    expect(enabled).toMatchObject({ status: 201, body: created.body });
    expect((await api(`${keysOf(project.id)}/${id}`, { token: owner.token })).body).toEqual({ ...created.body, can_push: false });
    // A maintainer may not rename a public key: the title stays.
    const edited = await api(`${keysOf(project.id)}/${id}`, { method: 'PUT', token: owner.token, body: { title: 'Mine now', can_push: true } });
    expect(edited.body).toMatchObject({ title: 'Instance', can_push: true });
    expect(await adminKeyIds({ public: true })).toContain(id);
    expect((await api(`${keysOf(project.id)}/${id}`, { method: 'DELETE', token: owner.token })).status).toBe(204);
    expect(await adminKeyIds({ public: true })).toContain(id);
    expect((await api('/deploy_keys', { token: owner.token })).status).toBe(403);
    expect(await api('/deploy_keys', { method: 'POST', token: rootToken(), body: { title: 'bad', key: 'nope' } })).toMatchObject({
      status: 400,
      body: { message: { key: ['is invalid'], fingerprint_sha256: ['cannot be generated'] } },
    });
  });

  it("lists the keys of the projects a user and the caller maintain; another user's private key cannot be enabled nor re-added", async () => {
    // Prepare: a developer maintains no project of the owner's; a private key of the developer's own project.
    const theirProject = await createProject(developer.token);
    const theirs = await add(theirProject.id, developer.token, { title: 'theirs', key: generateSshPublicKey() });

    // Act
    const answers = await Promise.all([
      api(`/users/${owner.id}/project_deploy_keys`, { token: developer.token }),
      api('/users/999999999/project_deploy_keys', { token: owner.token }),
      api(`${keysOf(project.id)}/${theirs.body.id}/enable`, { method: 'POST', token: owner.token }),
      add(project.id, owner.token, { title: 'copied', key: theirs.body.key }),
    ]);

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
      [403, { message: '403 Forbidden - No common authorized project found' }],
      [404, { message: '404 User Not Found' }],
      [404, { message: '404 Deploy key Not Found' }],
      [400, { message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } }],
    ]);
  });

  it("removes a deleted project's links and the private keys only it used", async () => {
    // Prepare
    const doomed = await createProject(owner.token);
    const kept = await add(project.id, owner.token, { title: 'kept', key: generateSshPublicKey() });
    const [only, both] = await Promise.all([
      add(doomed.id, owner.token, { title: 'only', key: generateSshPublicKey() }),
      add(doomed.id, owner.token, { title: 'both', key: kept.body.key }),
    ]);
    expect(both.body.id).toBe(kept.body.id);

    // Act
    expect((await api(`/projects/${doomed.id}`, { method: 'DELETE', token: owner.token })).status).toBe(202);

    // Assess
    await eventually(async () => expect(await adminKeyIds()).not.toContain(only.body.id));
    expect(await adminKeyIds()).toContain(kept.body.id);
  });
});

/**
 * The generic package registry and the Packages API as CI jobs and clients use them:
 * `curl --upload-file` with a personal access token, a running job's `$CI_JOB_TOKEN` and a deploy
 * token (headers and HTTP Basic), the bytes downloaded back exactly, duplicates (the newest file
 * of a name served), lists with filters, orders and pagination headers, who may do what, GitLab's
 * validation answers (which write nothing), deletes, concurrent uploads of one version making one
 * package, and a deleted project's packages going with it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getItem } from '../../shared/platform/dynamo/query';
import { bucketName, s3 } from '../../shared/platform/s3/client';
import { packageKeys, packageObjects } from '../../shared/packages/store/keys';
import { api, baseUrl, isLocalRuntime } from '../support/api';
import { eventually } from '../support/eventually';
import { createGroup, createProject, createUser, newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { pushNewRepository } from '../support/git';
import { TestRunner } from '../ci/runner';

const GUEST = 10;
const REPORTER = 20;
const DEVELOPER = 30;
const MAINTAINER = 40;

const genericPath = (projectId: number | string, name: string, version: string, file: string) => `/projects/${projectId}/packages/generic/${name}/${version}/${file}`;

/** A raw request as curl sends it (`--upload-file`: no Content-Type), answering the body's bytes. */
async function raw(method: 'PUT' | 'GET', path: string, headers: Record<string, string>, body?: Buffer) {
  const response = await fetch(`${baseUrl()}/api/v4${path}`, { method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, headers: response.headers, bytes, json: type.includes('json') && bytes.length ? JSON.parse(bytes.toString('utf8')) : undefined };
}

const token = (secret: string) => ({ 'PRIVATE-TOKEN': secret });
const basic = (username: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` });
const upload = (projectId: number, name: string, version: string, file: string, headers: Record<string, string>, data: Buffer = randomBytes(64)) =>
  raw('PUT', genericPath(projectId, name, version, file), headers, data);

describe('generic packages', () => {
  let project: OwnedProject;
  let reporter: { token: string };
  let developer: { token: string };
  let maintainer: { token: string };
  let guest: { token: string };
  beforeAll(async () => {
    project = await ownedProject('private');
    [reporter, developer, maintainer, guest] = await Promise.all([newMember(project, REPORTER), newMember(project, DEVELOPER), newMember(project, MAINTAINER), newMember(project, GUEST)]);
  });

  it('publishes with a token and downloads the same bytes; a duplicate adds a file and the newest is served', async () => {
    // Prepare: binary content with NULs and invalid UTF-8.
    const first = Buffer.concat([Buffer.from([0, 0xff, 0xfe, 0x80]), randomBytes(3000)]);
    const second = Buffer.concat([Buffer.from([0xc3, 0x28, 0]), randomBytes(5000)]);

    // Act
    const put = await upload(project.id, 'app', '1.2.3', 'app.tar.gz', token(developer.token), first);
    const again = await raw('PUT', `${genericPath(project.id, 'app', '1.2.3', 'app.tar.gz')}?select=package_file`, basic('anyone', developer.token), second);
    const got = await raw('GET', genericPath(encodeURIComponent(project.fullPath), 'app', '1.2.3', 'app.tar.gz'), basic('ignored', reporter.token));
    const list = await api(`/projects/${project.id}/packages`, { token: reporter.token });
    const files = await api(`/projects/${project.id}/packages/${list.body[0]?.id}/package_files`, { token: reporter.token });
    const single = await api(`/projects/${project.id}/packages/${list.body[0]?.id}`, { token: maintainer.token });
    const missing = await raw('GET', genericPath(project.id, 'app', '1.2.3', 'other.bin'), token(reporter.token));

    // Assess
    expect(put).toMatchObject({ status: 201, json: { message: '201 Created' } });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ package_id: list.body[0].id, file_name: 'app.tar.gz', size: second.length, file_md5: null, file_sha1: null, file_sha256: sha256(second), project_id: project.id });
    expect(got.status).toBe(200);
    expect(got.bytes.equals(second)).toBe(true);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="app.tar.gz"; filename*=UTF-8''app.tar.gz`);
    expect(got.headers.get('x-checksum-sha256')).toBe(sha256(second));
    expect(list.body).toEqual([
      {
        id: expect.any(Number),
        name: 'app',
        version: '1.2.3',
        package_type: 'generic',
        status: 'default',
        _links: { web_path: `/${project.fullPath}/-/packages/${list.body[0].id}` },
        created_at: expect.any(String),
        last_downloaded_at: expect.any(String),
        creator_id: expect.any(Number),
        tags: [],
      },
    ]);
    expect(files.body.map((file: { size: number; file_sha256: string }) => [file.size, file.file_sha256])).toEqual([
      [first.length, sha256(first)],
      [second.length, sha256(second)],
    ]);
    expect(single.body).toMatchObject({ id: list.body[0].id, _links: { delete_api_path: expect.stringMatching(new RegExp(`/api/v4/projects/${project.id}/packages/${list.body[0].id}$`)) }, versions: [] });
    expect(missing).toMatchObject({ status: 404, json: { message: '404 Not found' } });
  });

  it('authenticates deploy tokens by header and Basic, by their scopes and only in the projects they reach', async () => {
    // Prepare
    const other = await ownedProject('private');
    const deployToken = async (projectId: number, owner: string, scopes: string[]) =>
      (await api(`/projects/${projectId}/deploy_tokens`, { method: 'POST', token: owner, body: { name: 'ci', scopes } })).body as { username: string; token: string };
    const [writer, reader, elsewhere] = await Promise.all([
      deployToken(project.id, project.owner.token, ['read_package_registry', 'write_package_registry']),
      deployToken(project.id, project.owner.token, ['read_package_registry']),
      deployToken(other.id, other.owner.token, ['read_package_registry', 'write_package_registry']),
    ]);
    const data = randomBytes(100);

    // Act
    const put = await upload(project.id, 'deployed', '1.0', 'a.bin', { 'Deploy-Token': writer.token }, data);
    const readOnly = await upload(project.id, 'deployed', '1.0', 'b.bin', { 'Deploy-Token': reader.token });
    const got = await raw('GET', genericPath(project.id, 'deployed', '1.0', 'a.bin'), basic(reader.username, reader.token));
    const wrongUser = await raw('GET', genericPath(project.id, 'deployed', '1.0', 'a.bin'), basic('someone', reader.token));
    const notReached = await raw('GET', genericPath(project.id, 'deployed', '1.0', 'a.bin'), { 'Deploy-Token': elsewhere.token });
    const bogus = await raw('GET', genericPath(project.id, 'deployed', '1.0', 'a.bin'), { 'Deploy-Token': `${writer.token}x` });
    const listed = await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'deployed' } });

    // Assess
    expect(put.status).toBe(201);
    expect(readOnly.status).toBe(403);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(data)).toBe(true);
    expect(wrongUser.status).toBe(401);
    expect(notReached).toMatchObject({ status: 404, json: { message: '404 Project Not Found' } });
    expect(bogus.status).toBe(401);
    expect(listed.body).toMatchObject([{ name: 'deployed', creator_id: null }]);
  });

  it('answers who may do what: reporters read, developers publish, maintainers delete; anonymous callers see no private project', async () => {
    // Prepare
    const pub = await ownedProject('public');
    await upload(pub.id, 'open', '1.0', 'o.bin', token(pub.owner.token), Buffer.from('open'));
    await upload(project.id, 'perm', '1.0', 'p.bin', token(developer.token));
    const pkg = (await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'perm' } })).body[0];

    // Act
    const byReporter = await upload(project.id, 'perm', '1.0', 'r.bin', token(reporter.token));
    const anonymousRead = await raw('GET', genericPath(project.id, 'perm', '1.0', 'p.bin'), {});
    const anonymousWrite = await upload(project.id, 'perm', '1.0', 'x.bin', {});
    const guestRead = await raw('GET', genericPath(project.id, 'perm', '1.0', 'p.bin'), token(guest.token));
    const publicRead = await raw('GET', genericPath(pub.id, 'open', '1.0', 'o.bin'), {});
    const publicList = await api(`/projects/${pub.id}/packages`);
    const developerDelete = await api(`/projects/${project.id}/packages/${pkg.id}`, { method: 'DELETE', token: developer.token });
    const reporterView = await api(`/projects/${project.id}/packages/${pkg.id}`, { token: reporter.token });

    // Assess
    expect(byReporter).toMatchObject({ status: 403, json: { message: '403 Forbidden' } });
    expect(anonymousRead).toMatchObject({ status: 404, json: { message: '404 Project Not Found' } });
    expect(anonymousWrite.status).toBe(401);
    expect(guestRead.status).toBe(403);
    expect(publicRead.bytes.toString()).toBe('open');
    expect(publicList.body.map((p: { name: string }) => p.name)).toEqual(['open']);
    expect(developerDelete.status).toBe(403);
    expect(reporterView.body._links).toEqual({ web_path: `/${project.fullPath}/-/packages/${pkg.id}` });
  });

  // (A file name `..` is refused too, `file_name should be a valid file path`; HTTP clients resolve it away before sending.)
  it('refuses bad names, versions, file names and statuses with GitLab’s errors, writing nothing', async () => {
    // Act
    const answers = await Promise.all([
      upload(project.id, 'bad%20name', '1.0', 'f.bin', token(developer.token)),
      upload(project.id, 'bad', '1..0', 'f.bin', token(developer.token)),
      upload(project.id, 'bad', '1.0', 'f%24.bin', token(developer.token)),
      raw('PUT', `${genericPath(project.id, 'bad', '1.0', 'f.bin')}?status=processing`, token(developer.token), Buffer.from('x')),
    ]);
    const listed = await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'bad', status: 'hidden' } });
    const listedDefault = await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'bad' } });

    // Assess
    expect(answers.map((answer) => [answer.status, answer.json])).toEqual([
      [400, { error: 'package_name is invalid' }],
      [400, { error: 'package_version is invalid' }],
      [400, { error: 'file_name is invalid' }],
      [400, { error: 'status does not have a valid value' }],
    ]);
    expect([listed.body, listedDefault.body]).toEqual([[], []]);
  });

  it('refuses a file over the size limit with 413 (Lambda’s payload, not GitLab’s 5 GB)', async () => {
    const tooLarge = await upload(project.id, 'big', '1.0', 'big.bin', token(developer.token), Buffer.alloc(4 * 1024 * 1024 + 1));
    expect(tooLarge).toMatchObject({ status: 413, json: { message: '413 Request Entity Too Large' } });
  });

  it('makes one package of concurrent uploads of one name and version (each file kept)', async () => {
    // Act
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(project.id, 'raced', '9.9.9', `f${i}.bin`, token(developer.token))));
    const listed = await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'raced' } });
    const files = await api(`/projects/${project.id}/packages/${listed.body[0]?.id}/package_files`, { token: reporter.token, query: { order_by: 'file_name', sort: 'desc' } });

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(listed.body).toHaveLength(1);
    expect(files.body.map((file: { file_name: string }) => file.file_name)).toEqual(['f5.bin', 'f4.bin', 'f3.bin', 'f2.bin', 'f1.bin', 'f0.bin']);
  });

  it('deletes a file (the older one of its name is served again) and a package with its files', async () => {
    // Prepare
    const older = Buffer.from('older');
    await upload(project.id, 'gone', '1.0', 'g.bin', token(developer.token), older);
    await upload(project.id, 'gone', '1.0', 'g.bin', token(developer.token), Buffer.from('newer'));
    const pkg = (await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'gone' } })).body[0];
    const [, newest] = (await api(`/projects/${project.id}/packages/${pkg.id}/package_files`, { token: reporter.token })).body;

    // Act
    const fileDeleted = await api(`/projects/${project.id}/packages/${pkg.id}/package_files/${newest.id}`, { method: 'DELETE', token: maintainer.token });
    const served = await raw('GET', genericPath(project.id, 'gone', '1.0', 'g.bin'), token(reporter.token));
    const fileAgain = await api(`/projects/${project.id}/packages/${pkg.id}/package_files/${newest.id}`, { method: 'DELETE', token: maintainer.token });
    const deleted = await api(`/projects/${project.id}/packages/${pkg.id}`, { method: 'DELETE', token: maintainer.token });
    const after = await Promise.all([
      api(`/projects/${project.id}/packages/${pkg.id}`, { token: reporter.token }),
      raw('GET', genericPath(project.id, 'gone', '1.0', 'g.bin'), token(reporter.token)),
      api(`/projects/${project.id}/packages/${pkg.id}`, { method: 'DELETE', token: maintainer.token }),
    ]);
    const reuploaded = await upload(project.id, 'gone', '1.0', 'g.bin', token(developer.token));
    const relisted = await api(`/projects/${project.id}/packages`, { token: reporter.token, query: { package_name: 'gone' } });

    // Assess
    expect(fileDeleted.status).toBe(204);
    expect(served.bytes.equals(older)).toBe(true);
    expect(fileAgain).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(deleted.status).toBe(204);
    expect(after.map((answer) => answer.status)).toEqual([404, 404, 404]);
    expect(reuploaded.status).toBe(201);
    expect(relisted.body.map((p: { id: number }) => p.id)).not.toContain(pkg.id);
    if (isLocalRuntime()) expect(await getItem(packageKeys.package(project.id, pkg.id))).toBeUndefined();
  });
});

describe('package lists', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await ownedProject('private');
    // In creation order: b 1.0, a 2.0, a 1.0, ab 3.0 (hidden).
    for (const [name, version] of [['b-pkg', '1.0'], ['a-pkg', '2.0'], ['a-pkg', '1.0']]) await upload(project.id, name, version, 'f.bin', token(project.owner.token));
    await raw('PUT', `${genericPath(project.id, 'ab-pkg', '3.0', 'f.bin')}?status=hidden`, token(project.owner.token), Buffer.from('h'));
  });

  const list = (query: Record<string, string | number>) => api(`/projects/${project.id}/packages`, { token: project.owner.token, query });
  const names = (answer: { body: Array<{ name: string; version: string }> }) => answer.body.map((pkg) => `${pkg.name}@${pkg.version}`);

  it('orders by created_at, name and version, pages with GitLab’s headers, and filters by name, version, type and status', async () => {
    // Act
    const firstPage = await list({ per_page: 2 });
    const secondPage = await list({ per_page: 2, page: 2 });
    const answers = await Promise.all([
      list({ order_by: 'name' }),
      list({ order_by: 'version', sort: 'desc' }),
      list({ package_name: 'a-pkg', order_by: 'name' }),
      list({ package_name: 'a-', order_by: 'created_at', sort: 'desc' }),
      list({ package_version: '1.0' }),
      list({ package_name: 'a-pkg', package_version: '1.0', order_by: 'version' }),
      list({ package_type: 'npm' }),
      list({ package_type: 'generic', status: 'hidden' }),
    ]);
    const hiddenDownload = await raw('GET', genericPath(project.id, 'ab-pkg', '3.0', 'f.bin'), token(project.owner.token));
    const hiddenSingle = await api(`/projects/${project.id}/packages/${answers[7].body[0]?.id}`, { token: project.owner.token });
    const keyset = await list({ package_name: 'a-pkg', order_by: 'created_at', pagination: 'keyset' });
    const badOrder = await list({ order_by: 'size' });

    // Assess
    expect(names(firstPage)).toEqual(['b-pkg@1.0', 'a-pkg@2.0']);
    expect(firstPage.headers.get('x-total')).toBe('3');
    expect(firstPage.headers.get('x-next-page')).toBe('2');
    expect(firstPage.headers.get('link')).toContain('rel="next"');
    expect(names(secondPage)).toEqual(['a-pkg@1.0']);
    expect(answers.map(names)).toEqual([
      ['a-pkg@2.0', 'a-pkg@1.0', 'b-pkg@1.0'],
      ['a-pkg@2.0', 'a-pkg@1.0', 'b-pkg@1.0'],
      ['a-pkg@2.0', 'a-pkg@1.0'],
      ['a-pkg@1.0', 'a-pkg@2.0'],
      ['b-pkg@1.0', 'a-pkg@1.0'],
      ['a-pkg@1.0'],
      [],
      ['ab-pkg@3.0'],
    ]);
    expect(answers[7].body[0]._links).toEqual({ delete_api_path: expect.any(String) });
    expect(hiddenDownload.bytes.toString()).toBe('h');
    expect(hiddenSingle.status).toBe(404);
    expect(keyset.status).toBe(400);
    expect(badOrder).toMatchObject({ status: 400, body: { error: 'order_by does not have a valid value' } });
  });
});

describe('packages from CI: a running job’s token', () => {
  it('publishes and downloads as the job’s user in its own project (JOB-TOKEN and gitlab-ci-token Basic), nowhere once the job is done', async () => {
    // Prepare: one job held running.
    const project = await ownedProject('private');
    await pushNewRepository(project.fullPath, project.owner.token, { '.gitlab-ci.yml': 'publish:\n  script: [echo]\n' });
    const runner = await TestRunner.register((await api(`/projects/${project.id}`, { token: project.owner.token })).body.runners_token);
    const job = await runner.pickNext();
    const data = randomBytes(256);

    // Act: `curl --header "JOB-TOKEN: $CI_JOB_TOKEN" --upload-file …`, then `curl --user "gitlab-ci-token:$CI_JOB_TOKEN" …`
    const put = await upload(project.id, 'ci-built', '0.1.0', 'bin.tgz', { 'JOB-TOKEN': job.token }, data);
    const got = await raw('GET', genericPath(project.id, 'ci-built', '0.1.0', 'bin.tgz'), basic('gitlab-ci-token', job.token));
    const listed = await api(`/projects/${project.id}/packages`, { headers: { 'JOB-TOKEN': job.token } });
    expect((await runner.update(job, 'success')).status).toBe(200);
    const afterwards = await upload(project.id, 'ci-built', '0.1.0', 'late.tgz', { 'JOB-TOKEN': job.token });

    // Assess
    expect(put.status).toBe(201);
    expect(got.bytes.equals(data)).toBe(true);
    expect(listed.body).toMatchObject([{ name: 'ci-built', version: '0.1.0', creator_id: null }]);
    expect(afterwards.status).toBe(401);
  });
});

describe('a deleted project', () => {
  it.skipIf(!isLocalRuntime())('takes its packages and their contents with it', async () => {
    // Prepare
    const project = await ownedProject('private');
    await upload(project.id, 'doomed', '1.0', 'd.bin', token(project.owner.token));
    const pkg = (await api(`/projects/${project.id}/packages`, { token: project.owner.token })).body[0];

    // Act
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(202);

    // Assess
    await eventually(async () => {
      const { client, sdk } = await s3();
      const objects = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucketName(), Prefix: packageObjects.projectPrefix(project.id) }));
      expect([await getItem(packageKeys.package(project.id, pkg.id)), objects.KeyCount ?? 0]).toEqual([undefined, 0]);
    });
  });
});

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

describe('a group’s packages', () => {
  it('lists the packages of the projects of a group and its subgroups the caller may read, with each project’s id and path', async () => {
    // Prepare: a private project in an internal group and one in its subgroup, a member of the first only.
    const owner = await createUser();
    const group = await createGroup(owner.token, { visibility: 'internal' });
    const subgroup = await createGroup(owner.token, { parent_id: group.id, visibility: 'internal' });
    const [top, nested] = await Promise.all([createProject(owner.token, { namespace_id: group.id, visibility: 'private' }), createProject(owner.token, { namespace_id: subgroup.id, visibility: 'private' })]);
    await upload(top.id, 'zeta', '1.0', 'z.bin', token(owner.token));
    await upload(nested.id, 'alpha', '1.0', 'a.bin', token(owner.token));
    const member = await newMember(top, REPORTER);
    const stranger = await createUser();

    // Act
    const all = await api(`/groups/${group.id}/packages`, { token: owner.token, query: { order_by: 'name' } });
    const byPath = await api(`/groups/${encodeURIComponent(group.fullPath)}/packages`, { token: owner.token, query: { order_by: 'project_path', sort: 'desc' } });
    const ownOnly = await api(`/groups/${group.id}/packages`, { token: owner.token, query: { exclude_subgroups: true } });
    const asMember = await api(`/groups/${group.id}/packages`, { token: member.token });
    const asStranger = await api(`/groups/${group.id}/packages`, { token: stranger.token });
    const anonymous = await api(`/groups/${group.id}/packages`);

    // Assess
    expect(all.body.map((p: { name: string; project_id: number; project_path: string }) => [p.name, p.project_id, p.project_path])).toEqual([
      ['alpha', nested.id, nested.fullPath],
      ['zeta', top.id, top.fullPath],
    ]);
    // `group/project-…` sorts after `group/grp…/project-…`.
    expect(byPath.body.map((p: { name: string }) => p.name)).toEqual(['zeta', 'alpha']);
    expect(ownOnly.body.map((p: { name: string }) => p.name)).toEqual(['zeta']);
    expect(asMember.body.map((p: { name: string }) => p.name)).toEqual(['zeta']);
    expect(asStranger.body).toEqual([]);
    expect(anonymous.status).toBe(404);
  });
});

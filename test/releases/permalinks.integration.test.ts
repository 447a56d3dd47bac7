/**
 * What clients call around releases besides the releases API itself: the permanent link to the
 * latest release (`…/releases/permalink/latest[/…]`), a release asset's permanent link
 * (`…/releases/:tag_name/downloads/<direct asset path>`), both 302 redirects, and the tags API's
 * `release` field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api';
import { newMember, ownedProject, type OwnedProject } from '../support/fixtures';
import { createFiles, enc } from '../repository/api/helpers';

const GUEST = 10;

describe('release permanent links and the tags’ releases', () => {
  let project: OwnedProject;
  const releases = (path = '') => `/projects/${project.id}/releases${path}`;
  beforeAll(async () => {
    project = await ownedProject('public');
    await createFiles(project.id, project.owner.token, { 'a.txt': 'a' });
    // Latest by released_at is `v2/x`; `old` is created last but released first.
    for (const [tag, releasedAt, url] of [
      ['v1', '2020-01-01T00:00:00Z', 'https://example.com/v1/app'],
      ['v2/x', '2021-01-01T00:00:00Z', 'https://example.com/v2/app'],
      ['old', '2019-01-01T00:00:00Z', 'https://example.com/old/äpp'],
    ]) {
      const response = await api(releases(), {
        token: project.owner.token,
        body: { tag_name: tag, ref: 'main', description: `notes ${tag}`, released_at: releasedAt, assets: { links: [{ name: 'app', url, direct_asset_path: '/bin/app.tar.gz' }] } },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    expect((await api(`/projects/${project.id}/repository/tags`, { token: project.owner.token, body: { tag_name: 'bare', ref: 'main' } })).status).toBe(201);
  });

  it('redirects the latest release’s permanent links and a release’s asset paths (302), 404 without one', async () => {
    // Act
    const latest = await api(releases('/permalink/latest'), { query: { order_by: 'created_at', include_html_description: true } });
    const latestAsset = await api(releases('/permalink/latest/downloads/bin/app.tar.gz'));
    const asset = await api(releases(`/${enc('v2/x')}/downloads/bin/app.tar.gz`));
    const olderAsset = await api(releases('/v1/downloads/bin/app.tar.gz'), { token: project.owner.token });
    const encodedAsset = await api(releases('/old/downloads/bin/app.tar.gz'));
    const noLink = await api(releases('/v1/downloads/bin/nope'));
    const noRelease = await api(releases('/bare/downloads/bin/app.tar.gz'));
    const empty = await ownedProject('public');
    const none = await api(`/projects/${empty.id}/releases/permalink/latest`);
    const followed = await api(new URL(latest.headers.get('location')!).pathname.replace(/^\/api\/v4/, ''));

    // Assess
    const api4 = `${baseUrl()}/api/v4/projects/${project.id}/releases`;
    expect(latest.status).toBe(302);
    expect(latest.headers.get('location')).toBe(`${api4}/v2%2Fx?include_html_description=true`);
    expect(latestAsset.status).toBe(302);
    expect(latestAsset.headers.get('location')).toBe(`${api4}/v2%2Fx/downloads/bin/app.tar.gz`);
    expect(asset.status).toBe(302);
    expect(asset.headers.get('location')).toBe('https://example.com/v2/app');
    expect(olderAsset.headers.get('location')).toBe('https://example.com/v1/app');
    expect(encodedAsset.headers.get('location')).toBe('https://example.com/old/%C3%A4pp');
    expect(noLink).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(noRelease).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(none).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(followed).toMatchObject({ status: 200, body: { tag_name: 'v2/x' } });
  });

  it('shows each tag’s release on the tags API (a page at once), null without one', async () => {
    // Act
    const list = await api(`/projects/${project.id}/repository/tags`, { query: { order_by: 'name', sort: 'asc' } });
    const one = await api(`/projects/${project.id}/repository/tags/${enc('v2/x')}`);
    const bare = await api(`/projects/${project.id}/repository/tags/bare`, { token: project.owner.token });

    // Assess
    expect(list.status).toBe(200);
    expect(Object.fromEntries(list.body.map((tag: { name: string; release: unknown }) => [tag.name, tag.release]))).toEqual({
      bare: null,
      old: { tag_name: 'old', description: 'notes old' },
      v1: { tag_name: 'v1', description: 'notes v1' },
      'v2/x': { tag_name: 'v2/x', description: 'notes v2/x' },
    });
    expect(Object.keys(one.body)).toEqual(['name', 'message', 'target', 'commit', 'release', 'protected', 'created_at']);
    expect(one.body.release).toEqual({ tag_name: 'v2/x', description: 'notes v2/x' });
    expect(bare.body.release).toBeNull();
  });

  it('keeps the redirects to who may read the code, carrying a private_token parameter', async () => {
    // Prepare
    const secret = await ownedProject('private');
    await createFiles(secret.id, secret.owner.token, { 'a.txt': 'a' });
    const created = await api(`/projects/${secret.id}/releases`, { token: secret.owner.token, body: { tag_name: 'v1', ref: 'main', assets: { links: [{ name: 'app', url: 'https://example.com/s', direct_asset_path: '/app' }] } } });
    expect(created.status).toBe(201);
    const guest = await newMember(secret, GUEST);

    // Act
    const anonymous = await api(`/projects/${secret.id}/releases/permalink/latest`);
    const byGuest = await api(`/projects/${secret.id}/releases/v1/downloads/app`, { token: guest.token });
    const byOwner = await api(`/projects/${secret.id}/releases/v1/downloads/app`, { token: secret.owner.token });
    // A `private_token` parameter is carried into the latest release's redirect, as GitLab does, so following it still authenticates.
    const byQueryToken = await api(`/projects/${secret.id}/releases/permalink/latest`, { query: { private_token: secret.owner.token, order_by: 'released_at' } });
    const followed = await fetch(byQueryToken.headers.get('location')!);

    // Assess
    expect(anonymous.status).toBe(404);
    expect(byGuest.status).toBe(403);
    expect(byOwner.headers.get('location')).toBe('https://example.com/s');
    expect([byQueryToken.status, byQueryToken.headers.get('location')]).toEqual([302, `${baseUrl()}/api/v4/projects/${secret.id}/releases/v1?${new URLSearchParams({ private_token: secret.owner.token })}`]);
    expect([followed.status, ((await followed.json()) as { tag_name: string }).tag_name]).toEqual([200, 'v1']);
  });
});

import { Gitlab } from '@gitbeaker/rest';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, rootToken } from '../support/api';
import { createUser, unique, type TestUser, newMember as addMember, ownedProject as createProject, type OwnedProject } from '../support/fixtures';
import { HOOK_FIELDS } from '../support/records';

const root = () => ({ token: rootToken() });

/** Internal: adds a hook (201 asserted). */
async function addHook(project: OwnedProject, body: Record<string, unknown> = {}, token = project.owner.token) {
  const response = await api(`/projects/${project.id}/hooks`, { token, body: { url: `https://ci.example.com/${unique('h')}`, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const listHooks = async (project: OwnedProject) => (await api(`/projects/${project.id}/hooks`, { token: project.owner.token })).body;

describe('POST /projects/:id/hooks', () => {
  let project: OwnedProject;
  beforeAll(async () => {
    project = await createProject();
  });

  it("creates a hook with GitLab's defaults: push events and SSL verification on, everything else off", async () => {
    // Act
    const response = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: 'https://ci.example.com/hook' } });

    // Assess
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(HOOK_FIELDS);
    expect(response.body).toEqual({
      id: expect.any(Number),
      url: 'https://ci.example.com/hook',
      project_id: project.id,
      push_events: true,
      issues_events: false,
      confidential_issues_events: false,
      merge_requests_events: false,
      tag_push_events: false,
      note_events: false,
      confidential_note_events: false,
      job_events: false,
      pipeline_events: false,
      wiki_page_events: false,
      deployment_events: false,
      enable_ssl_verification: true,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
    });
  });

  it('sets every flag, the request parameter wiki_events answering as wiki_page_events', async () => {
    // Act
    const response = await api(`/projects/${project.id}/hooks`, {
      token: project.owner.token,
      body: {
        url: 'http://ci.example.com/all',
        push_events: false,
        issues_events: true,
        confidential_issues_events: true,
        merge_requests_events: true,
        tag_push_events: true,
        note_events: true,
        confidential_note_events: true,
        job_events: true,
        pipeline_events: true,
        wiki_events: true,
        deployment_events: true,
        enable_ssl_verification: false,
      },
    });

    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      url: 'http://ci.example.com/all',
      push_events: false,
      issues_events: true,
      confidential_issues_events: true,
      merge_requests_events: true,
      tag_push_events: true,
      note_events: true,
      confidential_note_events: true,
      job_events: true,
      pipeline_events: true,
      wiki_page_events: true,
      deployment_events: true,
      enable_ssl_verification: false,
    });
  });

  it('accepts form fields and the project by its URL-encoded full path', async () => {
    // Prepare
    const form = new URLSearchParams({ url: 'https://form.example.com/hook', wiki_events: 'true', push_events: 'false' });
    // Act
    const response = await api(`/projects/${encodeURIComponent(project.fullPath)}/hooks`, { token: project.owner.token, form });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ project_id: project.id, url: 'https://form.example.com/hook', push_events: false, wiki_page_events: true });
  });

  it.each([
    [{ url: undefined }, { error: 'url is missing' }],
    [{ url: '' }, { error: 'url is missing' }],
    [{ url: 'ftp://ci.example.com/hook' }, { message: { url: ['is blocked: Only allowed schemes are http, https'] } }],
    [{ url: 'javascript:alert(1)' }, { message: { url: ['is blocked: Only allowed schemes are http, https'] } }],
    [{ url: 'not a url' }, { message: { url: ['is invalid'] } }],
    [{ url: 'http://exa mple.com/' }, { message: { url: ['is invalid'] } }],
    [{ push_events: 'maybe' }, { error: 'push_events is invalid' }],
    [{ wiki_events: 'sometimes' }, { error: 'wiki_events is invalid' }],
    [{ enable_ssl_verification: 'x' }, { error: 'enable_ssl_verification is invalid' }],
    [{ token: 'line\nbreak' }, { message: { token: ['is invalid'] } }],
  ])('rejects %o with 400 %o and writes nothing', async (override, body) => {
    // Prepare
    const fresh = await createProject();
    // Act
    const response = await api(`/projects/${fresh.id}/hooks`, {
      token: fresh.owner.token,
      body: { url: 'https://ci.example.com/hook', ...override },
    });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
    expect(await listHooks(fresh)).toEqual([]);
  });

  it('answers 404 Project Not Found for an unknown project', async () => {
    const response = await api('/projects/999999999/hooks', { ...root(), body: { url: 'https://ci.example.com/hook' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });
});

describe('the hook secret token', () => {
  it('is accepted on create and edit and never returned by any hooks route', async () => {
    // Prepare
    const project = await createProject();
    const secret = `s3cr3t-${unique('tok')}`;
    const newSecret = `n3w-${unique('tok')}`;

    // Act
    const createdHook = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, body: { url: 'https://ci.example.com/t', token: secret } });
    const id = createdHook.body.id as number;
    const responses = [
      createdHook,
      await api(`/projects/${project.id}/hooks`, { token: project.owner.token }),
      await api(`/projects/${project.id}/hooks/${id}`, { token: project.owner.token }),
      await api(`/projects/${project.id}/hooks/${id}`, { method: 'PUT', token: project.owner.token, body: { url: 'https://ci.example.com/t2', token: newSecret } }),
      await api(`/projects/${project.id}/hooks/${id}`, { method: 'PUT', token: project.owner.token, body: { url: 'https://ci.example.com/t3', token: '' } }),
      await api(`/projects/${project.id}/hooks/${id}`, { method: 'DELETE', token: project.owner.token }),
    ];

    // Assess
    expect(responses.map((r) => r.status)).toEqual([201, 200, 200, 200, 200, 200]);
    for (const response of responses) {
      const text = JSON.stringify(response.body);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(newSecret);
      expect(text).not.toMatch(/token/i);
    }
  });
});

describe('GET /projects/:id/hooks', () => {
  it('lists the hooks of the project, oldest first, with pagination headers', async () => {
    // Prepare
    const project = await createProject();
    const hooks = [await addHook(project), await addHook(project), await addHook(project)];
    await addHook(await createProject()); // another project's hook never shows

    // Act
    const first = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, query: { per_page: 2 } });
    const second = await api(`/projects/${project.id}/hooks`, { token: project.owner.token, query: { per_page: 2, page: 2 } });

    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toEqual(hooks.slice(0, 2));
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-per-page')).toBe('2');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(second.body).toEqual(hooks.slice(2));
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
  });

  it('lists nothing for a project without hooks', async () => {
    const project = await createProject();
    const response = await api(`/projects/${project.id}/hooks`, { token: project.owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get('x-total')).toBe('0');
  });
});

describe('GET /projects/:id/hooks/:hook_id', () => {
  it('returns one hook', async () => {
    // Prepare
    const project = await createProject();
    const hook = await addHook(project, { note_events: true });
    // Act
    const response = await api(`/projects/${project.id}/hooks/${hook.id}`, { token: project.owner.token });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual(hook);
    expect(response.body.note_events).toBe(true);
  });

  it('answers 404 Project Hook Not Found for an unknown hook, and for a hook of another project', async () => {
    // Prepare
    const project = await createProject();
    const other = await createProject();
    const otherHook = await addHook(other);
    // Act
    const unknown = await api(`/projects/${project.id}/hooks/999999999`, { token: project.owner.token });
    const foreign = await api(`/projects/${project.id}/hooks/${otherHook.id}`, { token: project.owner.token });
    // Assess
    for (const response of [unknown, foreign]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: '404 Project Hook Not Found' });
    }
  });

  it('answers 400 for a hook id that is not an integer', async () => {
    const project = await createProject();
    const response = await api(`/projects/${project.id}/hooks/abc`, { token: project.owner.token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'hook_id is invalid' });
  });
});

describe('PUT /projects/:id/hooks/:hook_id', () => {
  it('changes the url and the given flags and keeps the others', async () => {
    // Prepare
    const project = await createProject();
    const hook = await addHook(project, { issues_events: true, enable_ssl_verification: false });

    // Act
    const response = await api(`/projects/${project.id}/hooks/${hook.id}`, {
      method: 'PUT',
      token: project.owner.token,
      body: { url: 'https://changed.example.com/hook', push_events: false, wiki_events: true, deployment_events: true },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...hook,
      url: 'https://changed.example.com/hook',
      push_events: false,
      wiki_page_events: true,
      deployment_events: true,
    });
    expect((await api(`/projects/${project.id}/hooks/${hook.id}`, { token: project.owner.token })).body).toEqual(response.body);
  });

  it.each([
    [{ url: undefined }, { error: 'url is missing' }],
    [{ url: 'gopher://example.com' }, { message: { url: ['is blocked: Only allowed schemes are http, https'] } }],
    [{ url: '::' }, { message: { url: ['is invalid'] } }],
    [{ note_events: 'perhaps' }, { error: 'note_events is invalid' }],
  ])('rejects %o with 400 %o and changes nothing', async (override, body) => {
    // Prepare
    const project = await createProject();
    const hook = await addHook(project);
    // Act
    const response = await api(`/projects/${project.id}/hooks/${hook.id}`, {
      method: 'PUT',
      token: project.owner.token,
      body: { url: 'https://changed.example.com', push_events: false, ...override },
    });
    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body);
    expect((await api(`/projects/${project.id}/hooks/${hook.id}`, { token: project.owner.token })).body).toEqual(hook);
  });

  it('answers 404 Project Hook Not Found for an unknown hook and creates nothing', async () => {
    // Prepare
    const project = await createProject();
    // Act
    const response = await api(`/projects/${project.id}/hooks/999999999`, {
      method: 'PUT',
      token: project.owner.token,
      body: { url: 'https://ci.example.com/hook' },
    });
    // Assess
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Hook Not Found' });
    expect(await listHooks(project)).toEqual([]);
  });
});

describe('DELETE /projects/:id/hooks/:hook_id', () => {
  it('deletes the hook and returns it; deleting again answers 200 with an empty body', async () => {
    // Prepare
    const project = await createProject();
    const hook = await addHook(project);
    const kept = await addHook(project);

    // Act
    const first = await api(`/projects/${project.id}/hooks/${hook.id}`, { method: 'DELETE', token: project.owner.token });
    const second = await api(`/projects/${project.id}/hooks/${hook.id}`, { method: 'DELETE', token: project.owner.token });

    // Assess
    expect(first.status).toBe(200);
    expect(first.body).toEqual(hook);
    expect(second.status).toBe(200);
    expect(second.body).toBe('');
    expect((await api(`/projects/${project.id}/hooks/${hook.id}`, { token: project.owner.token })).status).toBe(404);
    expect(await listHooks(project)).toEqual([kept]);
  });

  it('answers 200 with an empty body for a hook that never existed', async () => {
    const project = await createProject();
    const response = await api(`/projects/${project.id}/hooks/999999999`, { method: 'DELETE', token: project.owner.token });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
  });

  it("never deletes another project's hook", async () => {
    // Prepare
    const project = await createProject();
    const other = await createProject();
    const otherHook = await addHook(other);
    // Act
    const response = await api(`/projects/${project.id}/hooks/${otherHook.id}`, { method: 'DELETE', token: project.owner.token });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(await listHooks(other)).toEqual([otherHook]);
  });
});

describe('hook permissions', () => {
  let priv: OwnedProject;
  let pub: OwnedProject;
  let hookOfPrivate: { id: number };
  let hookOfPublic: { id: number };
  let developer: TestUser;
  let maintainer: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    [priv, pub, outsider] = await Promise.all([createProject('private'), createProject('public'), createUser()]);
    [developer, maintainer] = await Promise.all([addMember(priv, 30), addMember(priv, 40)]);
    [hookOfPrivate, hookOfPublic] = await Promise.all([addHook(priv), addHook(pub)]);
  });

  /** Every hooks route on `project`, with a valid body where one is needed. */
  const routes = (project: () => OwnedProject, hook: () => { id: number }) =>
    [
      ['GET list', () => ({ path: `/projects/${project().id}/hooks`, method: 'GET' as const })],
      ['POST', () => ({ path: `/projects/${project().id}/hooks`, method: 'POST' as const, body: { url: 'https://x.example.com' } })],
      ['GET one', () => ({ path: `/projects/${project().id}/hooks/${hook().id}`, method: 'GET' as const })],
      ['PUT', () => ({ path: `/projects/${project().id}/hooks/${hook().id}`, method: 'PUT' as const, body: { url: 'https://x.example.com' } })],
      ['DELETE', () => ({ path: `/projects/${project().id}/hooks/${hook().id}`, method: 'DELETE' as const })],
    ] as const;

  const privateRoutes = routes(() => priv, () => hookOfPrivate);
  const publicRoutes = routes(() => pub, () => hookOfPublic);

  it.each(privateRoutes)('answers 403 to a developer: %s', async (_name, request) => {
    const { path, ...options } = request();
    const response = await api(path, { ...options, token: developer.token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
  });

  it.each(privateRoutes)('answers 404 Project Not Found to a non-member of a private project: %s', async (_name, request) => {
    const { path, ...options } = request();
    const response = await api(path, { ...options, token: outsider.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: '404 Project Not Found' });
  });

  it.each(publicRoutes)('answers 403 to a non-member of a public project: %s', async (_name, request) => {
    const { path, ...options } = request();
    const response = await api(path, { ...options, token: outsider.token });
    expect(response.status).toBe(403);
  });

  it.each(publicRoutes)('answers 401 to an anonymous request, even on a public project: %s', async (_name, request) => {
    const { path, ...options } = request();
    const response = await api(path, options);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: '401 Unauthorized' });
  });

  it('leaves the hooks untouched after the refused requests', async () => {
    expect((await listHooks(priv)).map((h: { id: number }) => h.id)).toContain(hookOfPrivate.id);
    expect((await listHooks(pub)).map((h: { id: number }) => h.id)).toEqual([hookOfPublic.id]);
  });

  it('lets a maintainer manage hooks', async () => {
    // Act
    const added = await addHook(priv, { job_events: true }, maintainer.token);
    const listed = await api(`/projects/${priv.id}/hooks`, { token: maintainer.token });
    const edited = await api(`/projects/${priv.id}/hooks/${added.id}`, { method: 'PUT', token: maintainer.token, body: { url: 'https://m.example.com' } });
    const deleted = await api(`/projects/${priv.id}/hooks/${added.id}`, { method: 'DELETE', token: maintainer.token });
    // Assess
    expect(listed.status).toBe(200);
    expect(listed.body.map((h: { id: number }) => h.id)).toContain(added.id);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ url: 'https://m.example.com', job_events: true });
    expect(deleted.status).toBe(200);
  });

  it('lets an admin who is not a member manage hooks of a private project', async () => {
    // Act
    const response = await api(`/projects/${priv.id}/hooks/${hookOfPrivate.id}`, root());
    const added = await api(`/projects/${priv.id}/hooks`, { ...root(), body: { url: 'https://admin.example.com' } });
    // Assess
    expect(response.status).toBe(200);
    expect(added.status).toBe(201);
  });
});

describe('@gitbeaker/rest ProjectHooks', () => {
  it('adds, lists, shows, edits and removes a hook as against GitLab', async () => {
    // Prepare
    const project = await createProject();
    const gitlab = new Gitlab({ host: baseUrl(), token: project.owner.token });

    // Act
    const added = await gitlab.ProjectHooks.add(project.id, 'https://gb.example.com/hook', {
      wikiPageEvents: true,
      issuesEvents: true,
      token: 'gitbeaker-secret',
    });
    const all = await gitlab.ProjectHooks.all(project.id);
    const shown = await gitlab.ProjectHooks.show(project.fullPath, added.id);
    const edited = await gitlab.ProjectHooks.edit(project.id, added.id, 'https://gb.example.com/edited', { pushEvents: false });
    await gitlab.ProjectHooks.remove(project.id, added.id);

    // Assess
    expect(added).toMatchObject({ project_id: project.id, url: 'https://gb.example.com/hook', wiki_page_events: true, issues_events: true, push_events: true });
    expect(all).toEqual([added]);
    expect(shown).toEqual(added);
    expect(edited).toMatchObject({ ...added, url: 'https://gb.example.com/edited', push_events: false });
    expect(await listHooks(project)).toEqual([]);
    expect(JSON.stringify([added, all, shown, edited])).not.toContain('gitbeaker-secret');
  });
});

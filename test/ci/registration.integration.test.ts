/**
 * Runner registration (`POST /runners`) with a project's runners token works from the moment the
 * project exists: the projects feature writes the token's lookup with the project (and its forks),
 * so no push or pipeline has to come first. A token no project has, or the token of a deleted
 * project, is refused with GitLab's 403.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createUser, ownedProject, type OwnedProject } from '../support/fixtures';

async function runnersToken(project: { id: number }, token: string): Promise<string> {
  const response = await api(`/projects/${project.id}`, { token });
  expect(response.status).toBe(200);
  expect(response.body.runners_token).toMatch(/^GR1348941/);
  return response.body.runners_token;
}

const register = (token: string, extra: Record<string, unknown> = {}) =>
  api('/runners', { method: 'POST', body: { token, description: 'registration test', info: { name: 'gitlab-runner', version: '17.0.0' }, ...extra } });

describe('POST /runners with a project runners token', () => {
  it('registers a runner on a project that never had a push or a pipeline', async () => {
    const project: OwnedProject = await ownedProject('private');
    const registered = await register(await runnersToken(project, project.owner.token), { tag_list: ['docker', 'linux'] });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^glrt-/), token_expires_at: null });

    // The runner is the project's: it can verify itself and ask for jobs (none yet).
    expect((await api('/runners/verify', { method: 'POST', body: { token: registered.body.token } })).status).toBe(200);
    const request = await api('/jobs/request', { method: 'POST', body: { token: registered.body.token } });
    expect(request.status).toBe(204);
  });

  it('registers a runner on a fresh fork with the fork’s own token', async () => {
    const source = await ownedProject('public');
    const forker = await createUser();
    const fork = await api(`/projects/${source.id}/fork`, { method: 'POST', token: forker.token, body: { namespace_path: forker.username } });
    expect(fork.status, JSON.stringify(fork.body)).toBe(201);
    const forkToken = await runnersToken(fork.body, forker.token);
    expect(forkToken).not.toBe(await runnersToken(source, source.owner.token));
    const registered = await register(forkToken);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  });

  it('refuses an unknown token with 403', async () => {
    const response = await register('GR1348941thisTokenBelongsToNoProject');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
  });

  it('refuses a token that differs from a real one in its last character', async () => {
    const project = await ownedProject('private');
    const token = await runnersToken(project, project.owner.token);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await register(altered)).status).toBe(403);
  });

  it('refuses the token of a deleted project', async () => {
    const project = await ownedProject('private');
    const token = await runnersToken(project, project.owner.token);
    expect((await api(`/projects/${project.id}`, { method: 'DELETE', token: project.owner.token })).status).toBe(202);
    const response = await register(token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden' });
  });
});

/**
 * Project path rules, as GitLab validates a project's `path` on create, rename and fork:
 * - `ProjectPathValidator`: `Gitlab::PathRegex.project_path_format_regex` (`PATH_REGEX_STR`, no
 *   `.git`/`.atom` suffix, case-sensitively as its lookbehind), then the reserved words;
 * - `Gitlab::Regex.oci_repository_path_regex` on a new or changed path (gitlab-org/gitlab#27483):
 *   no special character first or last, none twice in a row — which is what refuses `.`, `..`
 *   and paths ending in `.`.
 * Every refused path writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api';
import { createProject, createUser, unique } from '../support/fixtures';

const FORMAT = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
const SPECIAL =
  "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'.";

const REFUSED: Array<[string, string[]]> = [
  ['..', [SPECIAL]],
  ['.', [SPECIAL]],
  ['...', [SPECIAL]],
  ['ends.', [SPECIAL]],
  ['.starts', [SPECIAL]],
  ['-starts', [FORMAT, SPECIAL]],
  ['ends-', [SPECIAL]],
  ['_starts', [SPECIAL]],
  ['two..dots', [SPECIAL]],
  ['two--dashes', [SPECIAL]],
  ['repo.git', [FORMAT]],
  ['feed.atom', [FORMAT]],
];

describe('POST /projects: path', () => {
  it.each(REFUSED)('refuses %j with 400 and creates nothing', async (path, messages) => {
    // Prepare
    const owner = await createUser();

    // Act
    const response = await api('/projects', { token: owner.token, body: { name: unique('Paths '), path } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { path: messages } });
    expect((await api('/projects', { token: owner.token, query: { owned: true } })).body).toEqual([]);
  });

  it.each(['a.b-c_d', 'Mixed.Case', 'repo.GIT', 'x'])('accepts %j', async (path) => {
    const owner = await createUser();
    const response = await api('/projects', { token: owner.token, body: { name: unique('Paths '), path } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.path).toBe(path);
  });
});

describe('PUT /projects/:id: path (rename)', () => {
  it.each(REFUSED)('refuses %j with 400 and changes nothing', async (path, messages) => {
    // Prepare
    const owner = await createUser();
    const project = await createProject(owner.token);
    const before = (await api(`/projects/${project.id}`, { token: owner.token })).body;

    // Act
    const response = await api(`/projects/${project.id}`, { token: owner.token, method: 'PUT', body: { name: before.name, path } });

    // Assess
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: { path: messages } });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toEqual(before);
  });
});

describe('POST /projects/:id/fork: path', () => {
  // GitLab's fork route answers a fork that does not validate with `conflict!(errors.messages)`.
  it.each(REFUSED)('refuses %j with 409 and forks nothing', async (path, messages) => {
    // Prepare
    const owner = await createUser();
    const source = await createProject(owner.token, { visibility: 'public' });
    const forker = await createUser();

    // Act
    const response = await api(`/projects/${source.id}/fork`, { token: forker.token, body: { namespace: forker.username, path } });

    // Assess
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: { path: messages } });
    expect((await api('/projects', { token: forker.token, query: { owned: true } })).body).toEqual([]);
    expect((await api(`/projects/${source.id}`)).body.forks_count).toBe(0);
  });
});

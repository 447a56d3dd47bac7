/**
 * Test data builders for integration tests. Every name is unique per call, so test files can run
 * in parallel against one shared service (local runtime or a deployment) without colliding.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { api, rootToken } from './api';

/** A short unique suffix, safe for usernames and emails. */
export const unique = (prefix = 'u'): string => `${prefix}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export interface TestUser {
  id: number;
  username: string;
  email: string;
  /** An impersonation token (scope `api`) that authenticates as this user. */
  token: string;
}

/** Creates a user as root (201 asserted) and an `api` token acting as that user. */
export async function createUser(overrides: Record<string, unknown> = {}): Promise<TestUser> {
  const username = (overrides.username as string | undefined) ?? unique('user');
  const email = (overrides.email as string | undefined) ?? `${username}@example.com`;
  const created = await api('/users', {
    token: rootToken(),
    // No password unless a test asks for one: nobody signs in with it, and hashing one (scrypt,
    // ~60 ms of CPU) for each of the suite's thousands of users costs minutes.
    body: { username, email, name: `Test ${username}`, ...('password' in overrides ? {} : { reset_password: true }), ...overrides },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = await createToken(created.body.id, ['api']);
  return { id: created.body.id, username, email, token };
}

/** An impersonation token for `userId` with `scopes`, returning its secret. */
export async function createToken(userId: number, scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const response = await api(`/users/${userId}/impersonation_tokens`, {
    token: rootToken(),
    body: { name: unique('token'), scopes, ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.token as string;
}

export interface TestProject {
  id: number;
  path: string;
  fullPath: string;
}

/** Creates a project as `token`'s user (201 asserted); `body` may set namespace_id, visibility, ... */
export async function createProject(token: string, body: Record<string, unknown> = {}): Promise<TestProject> {
  const response = await api('/projects', { token, body: { name: unique('Project '), ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, path: response.body.path, fullPath: response.body.path_with_namespace };
}

/** Creates a group as `token`'s user, who becomes its owner (201 asserted). */
export async function createGroup(token: string, body: Record<string, unknown> = {}): Promise<{ id: number; fullPath: string }> {
  const path = unique('grp');
  const response = await api('/groups', { token, body: { name: path, path, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, fullPath: response.body.full_path };
}

/** Adds a member to a group or project as root (201 asserted). */
export async function addMember(kind: 'groups' | 'projects', id: number, userId: number, accessLevel: number, extra: Record<string, unknown> = {}) {
  const response = await api(`/${kind}/${id}/members`, {
    token: rootToken(),
    body: { user_id: userId, access_level: accessLevel, ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A project created by a fresh user, who owns it through their personal namespace. */
export interface OwnedProject {
  id: number;
  fullPath: string;
  owner: TestUser;
}

/** Creates a project owned by a new user, with the given visibility. */
export async function ownedProject(visibility: 'private' | 'internal' | 'public' = 'private'): Promise<OwnedProject> {
  const owner = await createUser();
  const { id, fullPath } = await createProject(owner.token, { visibility });
  return { id, fullPath, owner };
}

/** A new user who is a member of `project` with `accessLevel` (added by root). */
export async function newMember(project: { id: number }, accessLevel: number): Promise<TestUser> {
  const user = await createUser();
  await addMember('projects', project.id, user.id, accessLevel);
  return user;
}

/** Opens an issue in a project as `token`'s user (201 asserted); the title is unique unless `body` sets one. */
export async function openIssue(projectId: number, token: string, body: Record<string, unknown> = {}) {
  const response = await api(`/projects/${projectId}/issues`, { token, body: { title: unique('issue '), ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A project's `open_issues_count`, read as root. */
export async function openIssuesCount(project: { id: number }): Promise<number> {
  return (await api(`/projects/${project.id}`, { token: rootToken() })).body.open_issues_count;
}

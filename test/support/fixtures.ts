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
    body: { username, email, name: `Test ${username}`, password: 'secret-password', ...overrides },
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

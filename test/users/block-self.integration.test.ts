import { describe, expect, it } from 'vitest';
import { api, rootToken } from '../support/api';
import { createUser } from '../support/fixtures';

const root = () => ({ token: rootToken() });

describe('POST /users/:id/block on oneself', () => {
  it('answers 403 to an admin blocking themselves, and the admin stays active', async () => {
    // Arrange: a second admin (never root: a regression must not lock the suite out)
    const admin = await createUser({ admin: true });

    // Act
    const response = await api(`/users/${admin.id}/block`, { token: admin.token, method: 'POST' });

    // Assert
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: '403 Forbidden - The API initiating user cannot be blocked by the API' });
    expect((await api(`/users/${admin.id}`, root())).body.state).toBe('active');
    expect((await api('/user', { token: admin.token })).status).toBe(200);
  });

  it('still lets that admin block someone else, and a non-admin blocks nobody (not even themselves)', async () => {
    // Arrange
    const admin = await createUser({ admin: true });
    const other = await createUser();
    const plain = await createUser();

    // Act
    const blocked = await api(`/users/${other.id}/block`, { token: admin.token, method: 'POST' });
    const bySelf = await api(`/users/${plain.id}/block`, { token: plain.token, method: 'POST' });

    // Assert
    expect(blocked.status).toBe(201);
    expect(blocked.body).toBe(true);
    expect(bySelf.status).toBe(403);
    expect(bySelf.body).toEqual({ message: '403 Forbidden' });
    expect((await api(`/users/${plain.id}`, root())).body.state).toBe('active');
  });
});
